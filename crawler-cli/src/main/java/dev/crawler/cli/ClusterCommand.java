package dev.crawler.cli;

import dev.crawler.embedded.EmbeddedCluster;
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
 * cluster.
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Run the embedded Kafka broker and schema registry until interrupted.")
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

  @Override
  public Integer call() throws InterruptedException {
    if (partitions < 1) {
      System.err.println("crawler: --partitions must be at least 1, got " + partitions);
      return CrawlerCli.USAGE_ERROR;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, partitions);
    // Ctrl-C: stop the broker cleanly before the JVM exits, so the next start resumes without
    // recovery
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  cluster.close();
                  stopped.countDown();
                },
                "cluster-shutdown"));
    {
      Topics topics = Topics.create(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
        new TopicInstaller(admin, Duration.ofSeconds(60))
            .install(topics.all(), partitions, (short) 1);
      }
      System.out.println("bootstrap.servers=" + cluster.bootstrapServers());
      System.out.println("schema.registry.url=" + cluster.schemaRegistryUrl());
      System.out.println("Press Ctrl-C to stop.");
      stopped.await();
    }
    return 0;
  }
}
