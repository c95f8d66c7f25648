package dev.crawler.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where a service's settings come from: a properties file, then {@code CRAWLER_*} environment
 * variables, which win, because Kubernetes passes settings as variables. This is the one place
 * where a variable name maps to a setting key: {@code CRAWLER_} is dropped, the rest is lower-cased
 * and every {@code _} becomes a {@code .}, so {@code CRAWLER_FETCHER_MAX_CONNECTIONS} sets {@code
 * fetcher.max.connections} and {@code CRAWLER_KAFKA_SASL_JAAS_CONFIG} sets {@code
 * kafka.sasl.jaas.config}.
 */
public final class SettingsSource {

  /** The prefix of the environment variables that are settings. */
  public static final String ENV_PREFIX = "CRAWLER_";

  private SettingsSource() {}

  /**
   * The settings of a file (when given) overlaid with the environment's.
   *
   * @throws ConfigException when the file cannot be read, naming it
   */
  public static Map<String, String> load(Optional<Path> file, Map<String, String> environment) {
    Map<String, String> settings = new LinkedHashMap<>();
    file.ifPresent(path -> settings.putAll(read(path)));
    settings.putAll(fromEnvironment(environment));
    return settings;
  }

  /** The settings named by {@code CRAWLER_*} variables; other variables are ignored. */
  public static Map<String, String> fromEnvironment(Map<String, String> environment) {
    Map<String, String> settings = new LinkedHashMap<>();
    environment.forEach(
        (name, value) -> {
          if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
            settings.put(keyOf(name), value);
          }
        });
    return settings;
  }

  /** The setting key an environment variable sets: {@code CRAWLER_A_B_C} is {@code a.b.c}. */
  public static String keyOf(String variable) {
    return variable.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
  }

  /** The environment variable that sets a key: {@code a.b.c} is {@code CRAWLER_A_B_C}. */
  public static String variableOf(String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  private static Map<String, String> read(Path path) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new ConfigException("cannot read settings file " + path + ": " + e.getMessage());
    }
    Map<String, String> settings = new LinkedHashMap<>();
    properties.stringPropertyNames().stream()
        .sorted()
        .forEach(key -> settings.put(key, properties.getProperty(key).trim()));
    return settings;
  }
}
