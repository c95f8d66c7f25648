package dev.crawler.cli.crawl;

import dev.crawler.archive.ArchiveConfig;
import dev.crawler.committer.CommitterConfig;
import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.frontier.FrontierConfig;
import dev.crawler.parser.ParserConfig;
import dev.crawler.render.RenderConfig;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The four services' settings for one {@code crawler crawl}: the settings file, then {@code
 * CRAWLER_*} variables, then the command's options; each service keeps its state under the data
 * directory. Building them validates every value, so a bad one stops the command before anything
 * starts.
 */
record CrawlSettings(Map<String, String> shared, Path dataDir) {

  /**
   * Reads and checks the settings.
   *
   * @param file the {@code --config} file, if given
   * @param overrides settings given by the command's options, which win
   * @throws ConfigException naming the setting (and the file) when one is unknown or bad
   */
  static CrawlSettings load(
      Optional<Path> file,
      Map<String, String> environment,
      Map<String, String> overrides,
      Path dataDir) {
    Map<String, String> settings = new HashMap<>(SettingsSource.load(file, environment));
    Set<String> known = knownKeys();
    for (String key : new TreeSet<>(settings.keySet())) {
      if (!known.contains(key) && !key.startsWith(ServiceConfig.KAFKA_PREFIX)) {
        throw new ConfigException(
            "unknown setting '"
                + key
                + "'"
                + file.map(f -> " in " + f)
                    .orElse(" in the environment (" + SettingsSource.variableOf(key) + ")"));
      }
    }
    settings.putAll(overrides);
    CrawlSettings crawl = new CrawlSettings(Map.copyOf(settings), dataDir);
    // every service reads its settings once here, as given, so a bad value stops the command now
    String bootstrapServers =
        crawl.shared.getOrDefault(ServiceConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
    String registryUrl =
        crawl.shared.getOrDefault(
            ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://127.0.0.1:8081");
    crawl.frontier(bootstrapServers, registryUrl);
    crawl.fetcher(bootstrapServers, registryUrl);
    crawl.parser(bootstrapServers, registryUrl);
    crawl.committer(bootstrapServers, registryUrl);
    crawl.archive(bootstrapServers, registryUrl);
    return crawl;
  }

  /**
   * The producers' compression with the embedded broker: none. The broker is in the same JVM and
   * its log on the same disk, so compression saves no network and costs CPU three times per page
   * (the producer compresses, the broker decompresses to validate, the consumer decompresses); on
   * the bench site it took 5 to 20 % of the crawl's CPU. A {@code kafka.compression.type} setting
   * still wins, and against a cluster the services' default (lz4) holds.
   */
  static final String EMBEDDED_COMPRESSION = "none";

  /** These settings with {@code key} set to {@code value} unless it is set already. */
  CrawlSettings withDefault(String key, String value) {
    if (shared.containsKey(key)) {
      return this;
    }
    Map<String, String> settings = new HashMap<>(shared);
    settings.put(key, value);
    return new CrawlSettings(Map.copyOf(settings), dataDir);
  }

  /**
   * These settings with the exact addresses of these seeds' hosts allowed to the fetcher, beside
   * the ranges {@code fetcher.address.allow} gives: a crawl of {@code http://localhost:8080/}
   * reaches 127.0.0.1 (and ::1), and nothing else of the ranges the fetcher denies. A host that
   * does not resolve is left out (its fetch fails on its own).
   */
  CrawlSettings allowingSeedAddresses(List<String> seeds) {
    Set<String> addresses = new TreeSet<>();
    for (String seed : seeds) {
      String host;
      try {
        host = URI.create(seed).getHost();
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (host == null) {
        continue;
      }
      try {
        for (InetAddress address : InetAddress.getAllByName(host.replaceAll("^\\[|\\]$", ""))) {
          addresses.add(address.getHostAddress());
        }
      } catch (UnknownHostException e) {
        // no address to allow
      }
    }
    if (addresses.isEmpty()) {
      return this;
    }
    String configured = shared.getOrDefault(FetcherConfig.ADDRESS_ALLOW_CONFIG, "").strip();
    Map<String, String> settings = new HashMap<>(shared);
    settings.put(
        FetcherConfig.ADDRESS_ALLOW_CONFIG,
        (configured.isEmpty() ? "" : configured + ",") + String.join(",", addresses));
    return new CrawlSettings(Map.copyOf(settings), dataDir);
  }

  FrontierConfig frontier(String bootstrapServers, String registryUrl) {
    Map<String, String> settings =
        streams("frontier", FrontierConfig.DEFINITION, bootstrapServers, registryUrl);
    settings.putIfAbsent(FrontierConfig.LEASE_TIMEOUT_MS_CONFIG, LEASE_TIMEOUT_MS);
    return new FrontierConfig(settings);
  }

  ArchiveConfig archive(String bootstrapServers, String registryUrl) {
    return new ArchiveConfig(service(ArchiveConfig.DEFINITION, bootstrapServers, registryUrl));
  }

  RenderConfig render(String bootstrapServers, String registryUrl) {
    return new RenderConfig(service(RenderConfig.DEFINITION, bootstrapServers, registryUrl));
  }

  FetcherConfig fetcher(String bootstrapServers, String registryUrl) {
    return new FetcherConfig(service(FetcherConfig.DEFINITION, bootstrapServers, registryUrl));
  }

  /**
   * The parser's stream threads unless {@code stream.threads} is set: one per core. Parsing is most
   * of a page's CPU, and fetch results are spread over the partitions by URL, so even one origin's
   * pages are parsed on every core; the other services keep one thread each.
   */
  private static final String PARSER_THREADS =
      Integer.toString(Math.max(1, Runtime.getRuntime().availableProcessors()));

  ParserConfig parser(String bootstrapServers, String registryUrl) {
    Map<String, String> settings =
        streams("parser", ParserConfig.DEFINITION, bootstrapServers, registryUrl);
    // robots directives addressed to one crawler are matched on the name the fetcher gives itself
    String userAgent = shared.get(FetcherConfig.USER_AGENT_CONFIG);
    if (userAgent != null && !userAgent.isBlank()) {
      settings.putIfAbsent(ParserConfig.ROBOTS_AGENT_CONFIG, RobotsPolicy.productToken(userAgent));
    }
    settings.putIfAbsent(StreamsServiceConfig.STREAM_THREADS_CONFIG, PARSER_THREADS);
    return new ParserConfig(settings);
  }

  CommitterConfig committer(String bootstrapServers, String registryUrl) {
    return new CommitterConfig(
        streams("committer", CommitterConfig.DEFINITION, bootstrapServers, registryUrl));
  }

  /**
   * The shared settings this service declares (the others are another service's), plus the
   * cluster's address.
   */
  private Map<String, String> service(
      ConfigDef definition, String bootstrapServers, String registryUrl) {
    Map<String, String> settings = new HashMap<>();
    shared.forEach(
        (key, value) -> {
          if (key.startsWith(ServiceConfig.KAFKA_PREFIX) || definition.names().contains(key)) {
            settings.put(key, value);
          }
        });
    settings.put(ServiceConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    settings.put(ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
    return settings;
  }

  /**
   * A request whose outcome was lost is released again after three minutes rather than the
   * service's ten: longer than the fetcher may legitimately hold a request (fetcher.max.hold.ms, 2
   * minutes, plus a request's timeout), so only a lost one is released twice.
   */
  static final String LEASE_TIMEOUT_MS = "180000";

  private Map<String, String> streams(
      String service, ConfigDef definition, String bootstrapServers, String registryUrl) {
    Map<String, String> settings = service(definition, bootstrapServers, registryUrl);
    // one application per service; its stores live
    // under the data directory, so a second run resumes
    settings.put(StreamsServiceConfig.APPLICATION_ID_CONFIG, "crawler-" + service);
    settings.put(
        StreamsServiceConfig.STATE_DIR_CONFIG,
        dataDir.resolve("state").resolve(service).toString());
    return settings;
  }

  private static Set<String> knownKeys() {
    Set<String> keys = new TreeSet<>();
    keys.addAll(FrontierConfig.DEFINITION.names());
    keys.addAll(FetcherConfig.DEFINITION.names());
    keys.addAll(ParserConfig.DEFINITION.names());
    keys.addAll(CommitterConfig.DEFINITION.names());
    keys.addAll(ArchiveConfig.DEFINITION.names());
    keys.addAll(RenderConfig.DEFINITION.names());
    // set by the command for each service
    keys.remove(StreamsServiceConfig.APPLICATION_ID_CONFIG);
    keys.remove(StreamsServiceConfig.STATE_DIR_CONFIG);
    return keys;
  }
}
