package dev.crawler.cli;

import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.EmbeddedSchemaRegistry;
import dev.crawler.embedded.KafkaNodeCluster;
import dev.crawler.embedded.StablePorts;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler cluster}: runs the embedded Kafka broker and schema registry, with the crawler's
 * topics, until interrupted; for running the services as separate processes against a local
 * cluster. {@code --brokers 3} runs three Kafka nodes, each a process of its own (KRaft, broker and
 * controller each), with three replicas of every topic and two in sync: a local cluster where a
 * broker can be killed.
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Run the embedded Kafka broker(s) and schema registry until interrupted.")
final class ClusterCommand implements Callable<Integer> {

  @Option(
      names = "--data-dir",
      defaultValue = "./crawl-data",
      description = "Where the broker keeps its data (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--partitions",
      defaultValue = "4",
      description = "Partitions of each topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = "--brokers",
      defaultValue = "1",
      description =
          "Kafka nodes: 1 runs in this JVM; more run as processes of their own, with three replicas of every topic (two in sync to"
              + " write) from three nodes on; their output goes to DATA_DIR/kafka-nodes/node-N.log (default: ${DEFAULT-VALUE}).")
  int brokers;

  @Override
  public Integer call() throws InterruptedException {
    if (partitions < 1) {
      System.err.println("crawler: --partitions must be at least 1, got " + partitions);
      return CrawlerCli.USAGE_ERROR;
    }
    if (brokers < 1 || brokers > 9) {
      System.err.println("crawler: --brokers must be between 1 and 9, got " + brokers);
      return CrawlerCli.USAGE_ERROR;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    AutoCloseable cluster;
    String bootstrapServers;
    String registryUrl;
    short replicas;
    if (brokers == 1) {
      EmbeddedCluster embedded = EmbeddedCluster.start(dataDir, partitions);
      cluster = embedded;
      bootstrapServers = embedded.bootstrapServers();
      registryUrl = embedded.schemaRegistryUrl();
      replicas = 1;
    } else {
      EmbeddedSchemaRegistry registry =
          EmbeddedSchemaRegistry.start(dataDir, StablePorts.of(dataDir).registry());
      KafkaNodeCluster nodes;
      try {
        nodes =
            KafkaNodeCluster.start(
                dataDir.resolve("kafka-nodes"),
                brokers,
                partitions,
                System.getProperty("java.class.path"));
      } catch (RuntimeException e) {
        registry.close();
        throw e;
      }
      cluster =
          () -> {
            try {
              nodes.close();
            } finally {
              registry.close();
            }
          };
      bootstrapServers = nodes.bootstrapServers();
      registryUrl = registry.url();
      replicas = nodes.replicas();
    }
    // Ctrl-C: stop the brokers cleanly before the JVM
    // exits, so the next start resumes without recovery
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    cluster.close();
                  } catch (Exception e) {
                    System.err.println("crawler: the cluster did not stop cleanly: " + e);
                  }
                  stopped.countDown();
                },
                "cluster-shutdown"));
    Topics topics = Topics.create(new HttpSchemaRegistryClient(registryUrl));
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      new TopicInstaller(admin, Duration.ofSeconds(60)).install(topics.all(), partitions, replicas);
    }
    System.out.println("bootstrap.servers=" + bootstrapServers);
    System.out.println("schema.registry.url=" + registryUrl);
    System.out.println("Press Ctrl-C to stop.");
    stopped.await();
    return 0;
  }
}
