package dev.crawler.cli;

import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.net.InetAddress;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawler errors clear}: lets every URL in the error state (blacklisted after its fetch failed) be
 * queued again when it is next discovered (seed 001's "Clear Error Cache"). The command goes to every
 * partition of {@code crawl.control}, so every frontier task receives it.
 */
@Command(name = "errors", mixinStandardHelpOptions = true, description = "Operate on URLs in the error state.", subcommands = ErrorsCommand.Clear.class)
public final class ErrorsCommand {

  /** {@code crawler errors clear}. */
  @Command(name = "clear", mixinStandardHelpOptions = true, description = "Clear the errors: blacklisted URLs are queued again when next discovered.")
  static final class Clear implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "localhost:9092", description = "The crawl's Kafka cluster (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--schema-registry", paramLabel = "URL", defaultValue = "http://localhost:8081", description = "The crawl's schema registry (default: ${DEFAULT-VALUE}).")
    String schemaRegistry;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = Topics.DEFAULT_PREFIX, description = "The crawl's topic prefix (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Override
    public Integer call() throws Exception {
      Topics topics = Topics.create(prefix, new HttpSchemaRegistryClient(schemaRegistry));
      ControlCommand command =
          ControlCommand.newBuilder()
              .setCommand(ControlCommandType.CLEAR_ERRORS)
              .setIssuedAt(Instant.now())
              .setIssuedBy(System.getProperty("user.name", "operator") + "@" + InetAddress.getLocalHost().getHostName())
              .build();
      Map<String, Object> properties = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<String, ControlCommand> producer =
          new KafkaProducer<>(properties, topics.control().keySerde().serializer(), topics.control().valueSerde().serializer())) {
        int partitions = 0;
        for (PartitionInfo partition : producer.partitionsFor(topics.control().name())) {
          producer.send(new ProducerRecord<>(topics.control().name(), partition.partition(), "", command)).get();
          partitions++;
        }
        System.out.println("errors cleared on " + partitions + " partition(s) of " + topics.control().name());
      }
      return 0;
    }
  }
}
