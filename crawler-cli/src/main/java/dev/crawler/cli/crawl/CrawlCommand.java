package dev.crawler.cli.crawl;

import dev.crawler.archive.ArchiveConfig;
import dev.crawler.cli.CrawlerCli;
import dev.crawler.common.config.Durations;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.frontier.FrontierConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.options.Bounds;
import dev.crawler.schemas.options.RequestOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crawler crawl SEED_URL...}: crawls from the seeds with all four services in this JVM,
 * against the embedded broker and registry unless others are given, until nothing is due or in
 * flight.
 */
@Command(
    name = "crawl",
    mixinStandardHelpOptions = true,
    description =
        "Crawl from the seed URLs with all four services in this JVM; ends when the crawl is idle or --max-pages pages were fetched.")
public final class CrawlCommand implements Callable<Integer> {

  @Parameters(
      arity = "1..*",
      paramLabel = "SEED_URL",
      description = "Where the crawl starts; only the seeds' origins are crawled.")
  List<String> seeds = new ArrayList<>();

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "The crawl configuration (crawl.yaml: options, sites, rules, policies; docs/crawl-config.md).")
  Path config;

  @Option(
      names = "--settings",
      paramLabel = "FILE",
      description = "A properties file of service settings (docs/settings.md).")
  Path settingsFile;

  @Option(
      names = "--max-pages",
      paramLabel = "N",
      description = "Stop after N fetch requests (default: no limit).")
  Long maxPages;

  @Option(
      names = "--max-depth",
      paramLabel = "N",
      description = "Follow links at most N hops from a seed (default: no limit).")
  Integer maxDepth;

  @Option(
      names = "--delay-ms",
      paramLabel = "N",
      description =
          "Milliseconds between the end of one request to an origin and the start of the next (default: 1000).")
  Long delayMs;

  @Option(
      names = "--user-agent",
      paramLabel = "UA",
      description = "The User-Agent header; robots.txt is matched on its product token.")
  String userAgent;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = "./crawl-data",
      description =
          "The broker's log and the state stores; a second run resumes from here (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write every document event as one JSON object per line.")
  Path out;

  @Option(
      names = "--render",
      paramLabel = "MODE",
      description =
          "Which pages a headless browser renders: never, always, auto (pages found built by scripts);"
              + " the global render option, over the crawl configuration's. Rendering needs a browser"
              + " (chromium-headless-shell, or render.browser.path).")
  String render;

  @Option(
      names = "--chunks",
      paramLabel = "FILE",
      description =
          "Write every chunk event (crawl.chunks: the chunks of documents whose chunk-max-chars option is set, and their deletions) as one JSON object per line.")
  Path chunks;

  @Option(
      names = "--warc",
      paramLabel = "DIR",
      description =
          "Archive every HTTP exchange (pages, robots.txt, redirects, errors) as WARC 1.1 files in this directory.")
  Path warc;

  @Option(
      names = "--crawl-log",
      paramLabel = "FILE",
      description = "Write every crawl-log entry as one JSON object per line.")
  Path crawlLog;

  @Option(
      names = "--force-recrawl",
      description =
          "Fetch every URL the crawl knows once more (documents are updated, kept or deleted by the answers); URLs the configuration now filters are deleted.")
  boolean forceRecrawl;

  @Option(
      names = "--run-for",
      paramLabel = "DURATION",
      description =
          "Keep crawling and recrawling for this long (30s, 10m, 2h, 1d), then stop, idle or not; without it the crawl stops when nothing is left to do.")
  String runFor;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      description = "Use this Kafka cluster instead of the embedded broker.")
  String bootstrapServers;

  @Option(
      names = "--schema-registry",
      paramLabel = "URL",
      description =
          "Use this schema registry (Confluent REST API) instead of the embedded one; required with --bootstrap-servers.")
  String schemaRegistry;

  @Option(
      names = {"-v", "--verbose"},
      description =
          "Show the services' log on the console (by default only the crawler's warnings and errors; the whole log is always written to DATA_DIR/logs/).")
  boolean verbose;

  /**
   * Partitions of the topics a crawl creates unless told: one per core, at least 2 and at most 4.
   * The parser runs a thread per core and each parses the partitions it owns; on a 2-core machine,
   * 2 partitions instead of 4 crawled the bench sites with the same or less CPU per page, ~100 MB
   * less memory and a first request ~0.6 s sooner (half the frontier's tasks and changelogs to make
   * and open). Topics that exist keep their count.
   */
  static final int DEFAULT_PARTITIONS =
      Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description =
          "Partitions of the topics this command creates (default: one per core, 2 to 4; ${DEFAULT-VALUE} here).")
  int partitions = DEFAULT_PARTITIONS;

  @Override
  public Integer call() {
    Crawl.Plan plan;
    try {
      plan = plan();
    } catch (ConfigException | IllegalArgumentException e) {
      System.err.println("crawler: " + e.getMessage());
      return CrawlerCli.USAGE_ERROR;
    }
    return Crawl.run(plan);
  }

  /** Checks every argument and setting; nothing is started. */
  Crawl.Plan plan() {
    List<String> normalized = new ArrayList<>();
    for (String seed : seeds) {
      try {
        normalized.add(UrlNormalizer.normalize(seed));
      } catch (InvalidUrlException e) {
        throw new IllegalArgumentException("seed " + e.getMessage());
      }
    }
    requireAtLeast("--max-pages", maxPages, 1);
    requireWithin(
        "--max-depth", maxDepth == null ? null : maxDepth.longValue(), CrawlOption.MAX_DEPTH);
    requireWithin("--delay-ms", delayMs, CrawlOption.DELAY_MS);
    if (partitions < 1) {
      throw new IllegalArgumentException("--partitions must be at least 1, got " + partitions);
    }
    if (config != null && !Files.isReadable(config)) {
      throw new IllegalArgumentException("--config " + config + ": no such readable file");
    }
    if (settingsFile != null && !Files.isReadable(settingsFile)) {
      throw new IllegalArgumentException("--settings " + settingsFile + ": no such readable file");
    }
    if ((bootstrapServers == null) != (schemaRegistry == null)) {
      throw new IllegalArgumentException(
          "--bootstrap-servers and --schema-registry go together: give both, or neither for the embedded ones");
    }
    if (userAgent != null && userAgent.isBlank()) {
      throw new IllegalArgumentException("--user-agent must not be blank");
    }
    for (Path file : new Path[] {out, crawlLog, chunks}) {
      if (file != null && Files.isDirectory(file)) {
        throw new IllegalArgumentException(file + " is a directory, not a file");
      }
    }
    Optional<Duration> runDuration =
        runFor == null ? Optional.empty() : Optional.of(duration("--run-for", runFor));
    Map<String, String> overrides = new LinkedHashMap<>();
    if (maxPages != null) {
      overrides.put(FrontierConfig.MAX_PAGES_CONFIG, maxPages.toString());
    }
    if (maxDepth != null) {
      overrides.put(FrontierConfig.MAX_DEPTH_CONFIG, maxDepth.toString());
    }
    if (delayMs != null) {
      overrides.put(FrontierConfig.DELAY_MS_CONFIG, delayMs.toString());
    }
    if (userAgent != null) {
      overrides.put(FetcherConfig.USER_AGENT_CONFIG, userAgent);
    }
    if (config != null) {
      overrides.put(FrontierConfig.CRAWL_CONFIG_CONFIG, config.toAbsolutePath().toString());
    }
    if (render != null) {
      overrides.put(FrontierConfig.RENDER_CONFIG, render.strip().toLowerCase(Locale.ROOT));
    }
    if (warc != null) {
      if (Files.exists(warc) && !Files.isDirectory(warc)) {
        throw new IllegalArgumentException("--warc " + warc + " is a file, not a directory");
      }
      overrides.put(FetcherConfig.ARCHIVE_EXCHANGES_CONFIG, "true");
      overrides.put(ArchiveConfig.DIRECTORY_CONFIG, warc.toAbsolutePath().toString());
    }
    overrides.put(FrontierConfig.SEEDS_CONFIG, String.join(",", normalized));
    CrawlSettings settings =
        CrawlSettings.load(Optional.ofNullable(settingsFile), System.getenv(), overrides, dataDir);
    // a crawl whose pages may be rendered needs a browser: said now, before anything starts
    boolean renders =
        settings
            .frontier(UNSTARTED, UNSTARTED_REGISTRY)
            .settings()
            .crawl()
            .assignsOtherThan(CrawlOption.RENDER, RequestOptions.Render.NEVER);
    if (renders) {
      settings.render(UNSTARTED, UNSTARTED_REGISTRY).browser();
    }
    return new Crawl.Plan(
        List.copyOf(normalized),
        settings,
        dataDir,
        partitions,
        Optional.ofNullable(bootstrapServers),
        Optional.ofNullable(schemaRegistry),
        Optional.ofNullable(out),
        Optional.ofNullable(chunks),
        Optional.ofNullable(crawlLog),
        Optional.ofNullable(warc),
        forceRecrawl,
        renders,
        runDuration,
        verbose);
  }

  /** The cluster's address while checking settings, before any cluster is there. */
  private static final String UNSTARTED = "127.0.0.1:9";

  private static final String UNSTARTED_REGISTRY = "http://" + UNSTARTED;

  /** A duration as 30s, 10m, 2h or 1d. */
  static Duration duration(String option, String text) {
    try {
      return Durations.parse(text, Optional.empty());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  /** A value of a crawl option given on the command line is checked as the configuration's. */
  private static void requireWithin(
      String option, @Nullable Long value, CrawlOption<?> crawlOption) {
    Bounds bounds = crawlOption.bounds().orElseThrow();
    if (value != null && !bounds.contains(value)) {
      throw new IllegalArgumentException(option + " must be " + bounds + ", got " + value);
    }
  }

  private static void requireAtLeast(String option, Long value, long minimum) {
    if (value != null && value < minimum) {
      throw new IllegalArgumentException(
          option + " must be at least " + minimum + ", got " + value);
    }
  }
}
