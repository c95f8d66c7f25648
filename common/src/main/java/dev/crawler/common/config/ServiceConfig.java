package dev.crawler.common.config;

import dev.crawler.common.ops.ServiceLogging;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.RegistryAccess;
import dev.crawler.schemas.serde.SchemaRegistryClient;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
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

  /** The prefix of the schema registry's access settings ({@link RegistryAccess}). */
  public static final String SCHEMA_REGISTRY_PREFIX = "schema.registry.";

  public static final String REGISTRY_AUTH_SOURCE_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.BASIC_AUTH_SOURCE;
  private static final String REGISTRY_AUTH_SOURCE_DOC =
      "Where the registry's basic-auth credentials come from: USER_INFO (schema.registry.basic.auth.user.info) or URL (the user info of"
          + " schema.registry.url, https://user:password@host/, never printed nor sent as part of a URL).";

  public static final String REGISTRY_USER_INFO_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.BASIC_AUTH_USER_INFO;
  private static final String REGISTRY_USER_INFO_DOC =
      "The registry's HTTP basic authentication, user:password (a managed registry's API key and secret). A secret: from a Kubernetes"
          + " Secret through its environment variable; never logged, never shown.";

  public static final String REGISTRY_BEARER_TOKEN_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.BEARER_AUTH_TOKEN;
  private static final String REGISTRY_BEARER_TOKEN_DOC =
      "A bearer token the registry takes instead of basic authentication. A secret.";

  public static final String REGISTRY_TRUSTSTORE_LOCATION_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.TRUSTSTORE_LOCATION;
  private static final String REGISTRY_TRUSTSTORE_LOCATION_DOC =
      "A truststore of the certificate authorities the registry's TLS certificate is checked against; empty for the JVM's own.";

  public static final String REGISTRY_TRUSTSTORE_PASSWORD_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.TRUSTSTORE_PASSWORD;
  public static final String REGISTRY_TRUSTSTORE_TYPE_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.TRUSTSTORE_TYPE;

  public static final String REGISTRY_KEYSTORE_LOCATION_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.KEYSTORE_LOCATION;
  private static final String REGISTRY_KEYSTORE_LOCATION_DOC =
      "A keystore holding the client certificate the registry asks for (mutual TLS); empty for none.";

  public static final String REGISTRY_KEYSTORE_PASSWORD_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.KEYSTORE_PASSWORD;
  public static final String REGISTRY_KEYSTORE_TYPE_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.KEYSTORE_TYPE;
  public static final String REGISTRY_KEY_PASSWORD_CONFIG =
      SCHEMA_REGISTRY_PREFIX + RegistryAccess.KEY_PASSWORD;

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
      "The HTTP port of the management endpoints: /health/live, /health/ready, the Prometheus /metrics and /control (operators' commands). 0 takes a free port (logged at start).";

  public static final String MANAGEMENT_CONTROL_TOKEN_CONFIG = "management.control.token";
  private static final String MANAGEMENT_CONTROL_TOKEN_DOC =
      "The bearer token a POST to /control must carry to issue an operator's command (pause, resume, block, unblock, delay, clear-cookies); without it /control is read-only (GET lists what operators hold). A secret: give it from a Kubernetes Secret.";

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
        // a misspelt setting would otherwise be ignored without a word; its value is not shown,
        // for it may be a secret under a misspelt name
        throw new ConfigException(
            "unknown setting "
                + key
                + " (environment variable "
                + SettingsSource.variableOf(key)
                + "); see docs/settings.md");
      }
    }
    String url = getString(SCHEMA_REGISTRY_URL_CONFIG);
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new ConfigException(
          SCHEMA_REGISTRY_URL_CONFIG,
          RegistryAccess.redacted(url),
          "must be an http:// or https:// URL");
    }
    registryAccess(); // bad credentials settings stop the service now, naming the setting
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
            REGISTRY_AUTH_SOURCE_CONFIG,
            Type.STRING,
            "USER_INFO",
            ConfigDef.CaseInsensitiveValidString.in("USER_INFO", "URL"),
            Importance.LOW,
            REGISTRY_AUTH_SOURCE_DOC)
        .define(
            REGISTRY_USER_INFO_CONFIG,
            Type.PASSWORD,
            null,
            Importance.MEDIUM,
            REGISTRY_USER_INFO_DOC)
        .define(
            REGISTRY_BEARER_TOKEN_CONFIG,
            Type.PASSWORD,
            null,
            Importance.MEDIUM,
            REGISTRY_BEARER_TOKEN_DOC)
        .define(
            REGISTRY_TRUSTSTORE_LOCATION_CONFIG,
            Type.STRING,
            "",
            Importance.LOW,
            REGISTRY_TRUSTSTORE_LOCATION_DOC)
        .define(
            REGISTRY_TRUSTSTORE_PASSWORD_CONFIG,
            Type.PASSWORD,
            null,
            Importance.LOW,
            "The truststore's password, if it has one. A secret.")
        .define(
            REGISTRY_TRUSTSTORE_TYPE_CONFIG,
            Type.STRING,
            "PKCS12",
            Importance.LOW,
            "The truststore's format: PKCS12 or JKS.")
        .define(
            REGISTRY_KEYSTORE_LOCATION_CONFIG,
            Type.STRING,
            "",
            Importance.LOW,
            REGISTRY_KEYSTORE_LOCATION_DOC)
        .define(
            REGISTRY_KEYSTORE_PASSWORD_CONFIG,
            Type.PASSWORD,
            null,
            Importance.LOW,
            "The keystore's password. A secret.")
        .define(
            REGISTRY_KEYSTORE_TYPE_CONFIG,
            Type.STRING,
            "PKCS12",
            Importance.LOW,
            "The keystore's format: PKCS12 or JKS.")
        .define(
            REGISTRY_KEY_PASSWORD_CONFIG,
            Type.PASSWORD,
            null,
            Importance.LOW,
            "The client key's password, when it is not the keystore's. A secret.")
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
            MANAGEMENT_CONTROL_TOKEN_CONFIG,
            Type.PASSWORD,
            null,
            Importance.LOW,
            MANAGEMENT_CONTROL_TOKEN_DOC)
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
    return ServiceLogging.Format.valueOf(getString(LOG_FORMAT_CONFIG).toUpperCase(Locale.ROOT));
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
        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
        session,
        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
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

  /** A client of the configured schema registry, with its credentials and TLS stores. */
  public SchemaRegistryClient registryClient() {
    return new HttpSchemaRegistryClient(getString(SCHEMA_REGISTRY_URL_CONFIG), registryAccess());
  }

  /**
   * The registry's credentials and TLS stores, from the {@code schema.registry.*} settings.
   *
   * @throws ConfigException naming the setting (not its value) when they are not usable
   */
  public RegistryAccess registryAccess() {
    Map<String, String> access = new HashMap<>();
    for (String key :
        List.of(
            REGISTRY_AUTH_SOURCE_CONFIG,
            REGISTRY_USER_INFO_CONFIG,
            REGISTRY_BEARER_TOKEN_CONFIG,
            REGISTRY_TRUSTSTORE_LOCATION_CONFIG,
            REGISTRY_TRUSTSTORE_PASSWORD_CONFIG,
            REGISTRY_TRUSTSTORE_TYPE_CONFIG,
            REGISTRY_KEYSTORE_LOCATION_CONFIG,
            REGISTRY_KEYSTORE_PASSWORD_CONFIG,
            REGISTRY_KEYSTORE_TYPE_CONFIG,
            REGISTRY_KEY_PASSWORD_CONFIG)) {
      Object value = get(key);
      if (value instanceof Password password) {
        access.put(key.substring(SCHEMA_REGISTRY_PREFIX.length()), password.value());
      } else if (value != null) {
        access.put(key.substring(SCHEMA_REGISTRY_PREFIX.length()), value.toString());
      }
    }
    try {
      return RegistryAccess.of(getString(SCHEMA_REGISTRY_URL_CONFIG), access);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }
}
