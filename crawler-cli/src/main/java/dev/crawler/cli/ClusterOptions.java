package dev.crawler.cli;

import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import picocli.CommandLine.Option;

/** The options of an operator command that talks to a running crawl's cluster (a picocli mixin). */
public final class ClusterOptions {

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "localhost:9092", description = "The crawl's Kafka cluster (default: ${DEFAULT-VALUE}).")
  String bootstrapServers;

  @Option(names = "--schema-registry", paramLabel = "URL", defaultValue = "http://localhost:8081", description = "The crawl's schema registry (default: ${DEFAULT-VALUE}).")
  String schemaRegistry;

  @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = Topics.DEFAULT_PREFIX, description = "The crawl's topic prefix (default: ${DEFAULT-VALUE}).")
  String prefix;

  /** The crawl's topic catalogue, with the registry client for its serdes. */
  Topics topics() {
    return Topics.create(prefix, new HttpSchemaRegistryClient(schemaRegistry));
  }

  String bootstrapServers() {
    return bootstrapServers;
  }
}
