package dev.crawler.frontier;

import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.schemas.options.Bounds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

/** The frontier's settings. */
public final class FrontierConfig extends StreamsServiceConfig {

  public static final String MAX_DEPTH_CONFIG = "frontier.max.depth";
  private static final String MAX_DEPTH_DOC =
      "The deepest link depth crawled (seeds are 0); -1 for no limit. Deeper URLs are logged TOO_DEEP.";

  public static final String MAX_PAGES_CONFIG = "frontier.max.pages";
  private static final String MAX_PAGES_DOC =
      "Fetch requests this instance releases at most; 0 for no limit. Queued URLs stay queued.";

  public static final String DELAY_MS_CONFIG = "frontier.delay.ms";
  private static final String DELAY_MS_DOC =
      "The default politeness delay in milliseconds between the end of one request to an origin and the start of the next: the global delay-ms option, over the crawl configuration's (sites and rules may set their own). The one setting of it: each fetch request carries its URL's delay to the fetcher.";

  public static final String RENDER_CONFIG = "frontier.render";
  private static final String RENDER_DOC =
      "The global render option, over the crawl configuration's (sites and rules may set their own): never, always, auto; empty leaves the configuration's.";

  public static final String WINDOW_PER_ORIGIN_CONFIG = "frontier.window.per.origin";
  private static final String WINDOW_PER_ORIGIN_DOC =
      "Fetch requests in flight per origin at most; 0 derives it from the delay (2 at one second, up to 1024 at no delay).";

  public static final String LEASE_TIMEOUT_MS_CONFIG = "frontier.lease.timeout.ms";
  private static final String LEASE_TIMEOUT_MS_DOC =
      "How long a released request waits for its outcome before its URL is released again, in milliseconds. Keep it above the fetchers' fetcher.max.hold.ms plus fetcher.request.timeout.ms, or a request a fetcher still holds is released twice.";

  public static final String CRAWL_CONFIG_CONFIG = "frontier.crawl.config";
  private static final String CRAWL_CONFIG_DOC =
      "The crawl configuration file (crawl.yaml: options, sites, rules, policies; see docs/crawl-config.md); empty for the defaults. frontier.max.depth and frontier.delay.ms, when set, are global options on top of it.";

  public static final String SEEDS_CONFIG = "frontier.seeds";
  private static final String SEEDS_DOC =
      "Seeds of the crawl besides the crawl configuration's sites' (for the host, domain and directory scopes).";

  public static final String MAX_ATTEMPTS_CONFIG = "frontier.max.attempts";
  private static final String MAX_ATTEMPTS_DOC =
      "Fetch attempts per URL when fetches fail transiently (NETWORK_ERROR, RATE_LIMITED).";

  public static final ConfigDef DEFINITION =
      streamsDefinition("crawler-frontier")
          .define(
              MAX_DEPTH_CONFIG,
              Type.INT,
              CrawlOption.MAX_DEPTH.defaultValue(),
              within(CrawlOption.MAX_DEPTH),
              Importance.HIGH,
              MAX_DEPTH_DOC)
          .define(MAX_PAGES_CONFIG, Type.LONG, 0L, Range.atLeast(0), Importance.HIGH, MAX_PAGES_DOC)
          .define(
              DELAY_MS_CONFIG,
              Type.LONG,
              CrawlOption.DELAY_MS.defaultValue(),
              within(CrawlOption.DELAY_MS),
              Importance.HIGH,
              DELAY_MS_DOC)
          .define(
              RENDER_CONFIG,
              Type.STRING,
              "",
              ConfigDef.CaseInsensitiveValidString.in("", "never", "always", "auto"),
              Importance.MEDIUM,
              RENDER_DOC)
          .define(
              WINDOW_PER_ORIGIN_CONFIG,
              Type.INT,
              0,
              Range.between(0, 1024),
              Importance.MEDIUM,
              WINDOW_PER_ORIGIN_DOC)
          .define(
              LEASE_TIMEOUT_MS_CONFIG,
              Type.LONG,
              600_000L,
              Range.between(1_000, 86_400_000),
              Importance.MEDIUM,
              LEASE_TIMEOUT_MS_DOC)
          .define(
              MAX_ATTEMPTS_CONFIG,
              Type.INT,
              3,
              Range.between(1, 100),
              Importance.MEDIUM,
              MAX_ATTEMPTS_DOC)
          .define(CRAWL_CONFIG_CONFIG, Type.STRING, "", Importance.HIGH, CRAWL_CONFIG_DOC)
          .define(SEEDS_CONFIG, Type.LIST, "", Importance.LOW, SEEDS_DOC);

  private final CrawlConfig crawl;
  private final String fileVersion;

  /** A setting of a crawl option takes the values the option does in the crawl configuration. */
  private static Range within(CrawlOption<?> option) {
    Bounds bounds = option.bounds().orElseThrow();
    boolean isUnbounded = bounds.max() == Long.MAX_VALUE || bounds.max() == Integer.MAX_VALUE;
    return isUnbounded ? Range.atLeast(bounds.min()) : Range.between(bounds.min(), bounds.max());
  }

  /**
   * @throws ConfigException naming the setting, or the crawl configuration's file, line and key
   */
  public FrontierConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
    String file = getString(CRAWL_CONFIG_CONFIG).strip();
    CrawlConfig loaded;
    try {
      loaded = file.isEmpty() ? CrawlConfig.DEFAULTS : CrawlConfigLoader.load(Path.of(file));
    } catch (CrawlConfigException e) {
      throw new ConfigException(e.getMessage());
    }
    this.crawl = withSettings(loaded);
    this.fileVersion = loaded.version();
  }

  /**
   * The version of the crawl configuration as its file says it, before the service's own settings
   * go on top: the version {@code crawler config apply} (or {@code crawler crawl --config}) names
   * when it applies the same file, so that a copy of it applied later changes nothing.
   */
  public String fileVersion() {
    return fileVersion;
  }

  /**
   * A crawl configuration with the service's own settings, when given, as global options on top
   * (the file's, or one an operator applied).
   */
  public CrawlConfig withSettings(CrawlConfig config) {
    Map<CrawlOption<?>, Object> overrides = new LinkedHashMap<>();
    if (originals().containsKey(MAX_DEPTH_CONFIG)) {
      overrides.put(CrawlOption.MAX_DEPTH, getInt(MAX_DEPTH_CONFIG));
    }
    if (originals().containsKey(DELAY_MS_CONFIG)) {
      overrides.put(CrawlOption.DELAY_MS, getLong(DELAY_MS_CONFIG));
    }
    if (!getString(RENDER_CONFIG).isEmpty()) {
      overrides.put(CrawlOption.RENDER, CrawlOption.RENDER.parse(getString(RENDER_CONFIG)));
    }
    return config.withGlobal(overrides);
  }

  /**
   * The Streams properties, with task idling off: the frontier's inputs (discovered URLs, outcomes,
   * control commands) are decided one by one and need no alignment by timestamp across topics, and
   * Kafka Streams' idling check formatted messages for every record of a task with an empty input
   * (a sixth of the frontier thread's time in {@code FrontierScaleBenchmark}). A {@code
   * kafka.max.task.idle.ms} setting still wins.
   */
  @Override
  public Properties streamsProperties() {
    Properties properties = super.streamsProperties();
    properties.putIfAbsent(
        StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    return properties;
  }

  @Override
  public String serviceName() {
    return "frontier";
  }

  /** The settings of the frontier's decisions. */
  public FrontierSettings settings() {
    return new FrontierSettings(
        crawl,
        getList(SEEDS_CONFIG),
        getLong(MAX_PAGES_CONFIG),
        getInt(WINDOW_PER_ORIGIN_CONFIG),
        Duration.ofMillis(getLong(LEASE_TIMEOUT_MS_CONFIG)),
        getInt(MAX_ATTEMPTS_CONFIG));
  }
}
