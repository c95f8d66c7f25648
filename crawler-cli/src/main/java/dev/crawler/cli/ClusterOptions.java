package dev.crawler.cli;

import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Option;

/** The options of an operator command that talks to a running crawl's cluster (a picocli mixin). */
public final class ClusterOptions {

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      defaultValue = "localhost:9092",
      description = "The crawl's Kafka cluster (default: ${DEFAULT-VALUE}).")
  String bootstrapServers;

  @Option(
      names = "--schema-registry",
      paramLabel = "URL",
      defaultValue = "http://localhost:8081",
      description = "The crawl's schema registry (default: ${DEFAULT-VALUE}).")
  String schemaRegistry;

  @Option(
      names = "--topic-prefix",
      paramLabel = "PREFIX",
      defaultValue = Topics.DEFAULT_PREFIX,
      description = "The crawl's topic prefix (default: ${DEFAULT-VALUE}).")
  String prefix;

  @Option(
      names = "--kafka",
      paramLabel = "KEY=VALUE",
      description =
          "A Kafka client setting, repeatable: security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512, sasl.jaas.config=…, ssl.truststore.location=…")
  Map<String, String> kafka = new LinkedHashMap<>();

  /** The Kafka clients' settings: the bootstrap servers and every {@code --kafka} setting. */
  public Map<String, Object> kafkaProperties() {
    Map<String, Object> properties = new LinkedHashMap<>(kafka);
    properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return properties;
  }

  /** The crawl's topic catalogue, with the registry client for its serdes. */
  public Topics topics() {
    return Topics.create(prefix, new HttpSchemaRegistryClient(schemaRegistry));
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }
}
