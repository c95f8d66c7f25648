package dev.crawler.cli;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.RegistryAccess;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Option;

/** The options of an operator command that talks to a running crawl's cluster (a picocli mixin). */
public final class ClusterOptions {

  /**
   * How long a command reads a topic to its end at most; a read that gives up says so on stderr and
   * in the log.
   */
  public static final Duration READ_BOUND = Duration.ofMinutes(5);

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

  @Option(
      names = "--registry",
      paramLabel = "KEY=VALUE",
      description =
          "A schema registry access setting, repeatable: basic.auth.user.info=USER:PASSWORD, bearer.auth.token=…,"
              + " ssl.truststore.location=…, ssl.truststore.password=…; the CRAWLER_SCHEMA_REGISTRY_* variables give them too"
              + " (better for secrets: a command line is seen by every user of the machine)")
  Map<String, String> registry = new LinkedHashMap<>();

  /**
   * Who issues a command from this command line, as the crawl log and {@code crawler status} name
   * them: {@code user@host}.
   */
  public static String operator() throws UnknownHostException {
    return System.getProperty("user.name", "operator")
        + "@"
        + InetAddress.getLocalHost().getHostName();
  }

  /** The Kafka clients' settings: the bootstrap servers and every {@code --kafka} setting. */
  public Map<String, Object> kafkaProperties() {
    Map<String, Object> properties = new LinkedHashMap<>(kafka);
    properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return properties;
  }

  /**
   * The settings of a consumer that reads a topic for a command: no group, nothing committed
   * ({@link ClientSettings#reader}).
   */
  public Map<String, Object> readerProperties() {
    return readerProperties(kafkaProperties());
  }

  /** The reader's settings for these connection settings. */
  public static Map<String, Object> readerProperties(Map<String, Object> kafka) {
    return ClientSettings.of(kafka).reader("crawler-cli");
  }

  /** The crawl's topic catalogue, with the registry client for its serdes. */
  public Topics topics() {
    return Topics.create(prefix, new HttpSchemaRegistryClient(schemaRegistry, registryAccess()));
  }

  /**
   * The registry's credentials and TLS stores: the {@code CRAWLER_SCHEMA_REGISTRY_*} variables (as
   * the services read them), then the {@code --registry} settings.
   */
  RegistryAccess registryAccess() {
    Map<String, String> settings = new LinkedHashMap<>();
    SettingsSource.fromEnvironment(System.getenv())
        .forEach(
            (key, value) -> {
              if (key.startsWith(ServiceConfig.SCHEMA_REGISTRY_PREFIX)
                  && !key.equals(ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG)) {
                settings.put(key.substring(ServiceConfig.SCHEMA_REGISTRY_PREFIX.length()), value);
              }
            });
    settings.putAll(registry);
    return RegistryAccess.of(schemaRegistry, settings);
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }
}
