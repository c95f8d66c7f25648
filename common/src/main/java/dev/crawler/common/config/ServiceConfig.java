package dev.crawler.common.config;

import dev.crawler.common.ops.ServiceLogging;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.SchemaRegistryClient;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.jspecify.annotations.Nullable;

/**
 * The settings every service has: where Kafka and the schema registry are, and the topic prefix.
 * Any setting starting {@code kafka.} is handed to the Kafka clients without the prefix ({@code
 * kafka.security.protocol=SASL_SSL}), so security and tuning settings need no code. Subclasses add
 * their own settings to {@link #baseDefinition()}.
 */
public abstract class ServiceConfig extends AbstractConfig {

  /** The prefix of settings passed through to the Kafka clients. */
  public static final String KAFKA_PREFIX = "kafka.";

  public static final String BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
  private static final String BOOTSTRAP_SERVERS_DOC =
      "The Kafka brokers to connect to first, host:port[,host:port...].";

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  private static final String SCHEMA_REGISTRY_URL_DOC =
      "The base URL of a registry speaking the Confluent REST API (Confluent Schema Registry, Apicurio's ccompat API, Karapace).";

  public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
  private static final String TOPIC_PREFIX_DOC =
      "The prefix of every topic name; several crawls can share a cluster under different prefixes.";

  public static final String SESSION_TIMEOUT_MS_CONFIG = "session.timeout.ms";
  private static final String SESSION_TIMEOUT_MS_DOC =
      "How long a process that stopped without leaving its consumer group (killed, frozen, cut off) keeps its partitions before the group"
          + " gives them to the others, in milliseconds (the consumer's session.timeout.ms, 45000 in Kafka). A shorter timeout moves a dead"
          + " instance's work sooner; too short, and a long garbage-collection pause costs a rebalance. The broker's"
          + " group.min.session.timeout.ms (6000 by default) is the least it accepts. A kafka.session.timeout.ms setting overrides it.";

  /** The default session timeout: a dead instance's partitions move within about ten seconds. */
  public static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;

  public static final String MANAGEMENT_PORT_CONFIG = "management.port";
  private static final String MANAGEMENT_PORT_DOC =
      "The HTTP port of the management endpoints: /health/live, /health/ready and the Prometheus /metrics. 0 takes a free port (logged at start).";

  public static final String LOG_FORMAT_CONFIG = "log.format";
  private static final String LOG_FORMAT_DOC =
      "How the service logs to standard output: text (one line per event) or json (one JSON object per line).";

  public static final String LOG_LEVEL_CONFIG = "log.level";
  private static final String LOG_LEVEL_DOC =
      "The lowest level logged: TRACE, DEBUG, INFO, WARN or ERROR (Kafka's and Jetty's own messages only from WARN).";

  private volatile @Nullable Topics topics;

  protected ServiceConfig(ConfigDef definition, Map<String, String> settings) {
    super(definition, settings, false);
    for (String key : settings.keySet()) {
      if (!key.startsWith(KAFKA_PREFIX) && !definition.names().contains(key)) {
        // a misspelt setting would otherwise be ignored without a word
        throw new ConfigException(
            key,
            settings.get(key),
            "unknown setting (environment variable "
                + SettingsSource.variableOf(key)
                + "); see docs/settings.md");
      }
    }
    String url = getString(SCHEMA_REGISTRY_URL_CONFIG);
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new ConfigException(
          SCHEMA_REGISTRY_URL_CONFIG, url, "must be an http:// or https:// URL");
    }
  }

  /** The settings every service declares; add the service's own to the result. */
  public static ConfigDef baseDefinition() {
    return new ConfigDef()
        .define(
            BOOTSTRAP_SERVERS_CONFIG,
            Type.STRING,
            "localhost:9092",
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            BOOTSTRAP_SERVERS_DOC)
        .define(
            SCHEMA_REGISTRY_URL_CONFIG,
            Type.STRING,
            "http://localhost:8081",
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            SCHEMA_REGISTRY_URL_DOC)
        .define(
            TOPIC_PREFIX_CONFIG,
            Type.STRING,
            Topics.DEFAULT_PREFIX,
            Importance.MEDIUM,
            TOPIC_PREFIX_DOC)
        .define(
            SESSION_TIMEOUT_MS_CONFIG,
            Type.INT,
            DEFAULT_SESSION_TIMEOUT_MS,
            ConfigDef.Range.between(1_000, 1_800_000),
            Importance.MEDIUM,
            SESSION_TIMEOUT_MS_DOC)
        .define(
            MANAGEMENT_PORT_CONFIG,
            Type.INT,
            8080,
            ConfigDef.Range.between(0, 65535),
            Importance.MEDIUM,
            MANAGEMENT_PORT_DOC)
        .define(
            LOG_FORMAT_CONFIG,
            Type.STRING,
            "text",
            ConfigDef.CaseInsensitiveValidString.in("text", "json"),
            Importance.LOW,
            LOG_FORMAT_DOC)
        .define(
            LOG_LEVEL_CONFIG,
            Type.STRING,
            "INFO",
            ConfigDef.CaseInsensitiveValidString.in("TRACE", "DEBUG", "INFO", "WARN", "ERROR"),
            Importance.LOW,
            LOG_LEVEL_DOC);
  }

  /** The format of the service's log. */
  public ServiceLogging.Format logFormat() {
    return ServiceLogging.Format.valueOf(
        getString(LOG_FORMAT_CONFIG).toUpperCase(java.util.Locale.ROOT));
  }

  /**
   * The Kafka client properties: the bootstrap servers and every {@code kafka.*} setting, prefix
   * removed. Callers add what their client needs on top.
   */
  public Map<String, Object> kafkaProperties() {
    Map<String, Object> properties = new HashMap<>(originalsWithPrefix(KAFKA_PREFIX, true));
    properties.put(
        CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, getString(BOOTSTRAP_SERVERS_CONFIG));
    return properties;
  }

  /**
   * The properties of an admin client: those of {@link #kafkaProperties()} an admin client knows
   * (security, timeouts), so it logs no unknown setting.
   */
  public Map<String, Object> adminProperties() {
    Map<String, Object> properties = new HashMap<>(kafkaProperties());
    properties.keySet().retainAll(AdminClientConfig.configNames());
    return properties;
  }

  /**
   * The group consumer's liveness settings: the session timeout and a heartbeat a third of it (at
   * most Kafka's 3 s), unless {@code kafka.*} settings give them.
   */
  public Map<String, Object> groupLiveness() {
    int session = getInt(SESSION_TIMEOUT_MS_CONFIG);
    return Map.of(
        org.apache.kafka.clients.consumer.ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
        session,
        org.apache.kafka.clients.consumer.ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
        Math.min(3_000, session / 3));
  }

  /** The topic catalogue, with a registry client for the configured URL; made once. */
  public Topics topics() {
    Topics result = topics;
    if (result == null) {
      synchronized (this) {
        if (topics == null) {
          topics = Topics.create(getString(TOPIC_PREFIX_CONFIG), registryClient());
        }
        result = topics;
      }
    }
    return result;
  }

  /** A client of the configured schema registry. */
  public SchemaRegistryClient registryClient() {
    return new HttpSchemaRegistryClient(getString(SCHEMA_REGISTRY_URL_CONFIG));
  }
}
