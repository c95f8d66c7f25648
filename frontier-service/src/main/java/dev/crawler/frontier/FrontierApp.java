package dev.crawler.frontier;

import dev.crawler.common.RunningService;
import dev.crawler.common.Seeds;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.ServiceThread;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.streams.StreamsService;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.streams.ConfigFollower;
import dev.crawler.frontier.streams.FrontierTopology;
import dev.crawler.schemas.InvalidUrlException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The frontier service: settings, topology, Kafka Streams, shutdown hook. */
public final class FrontierApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierApp.class);

  private final StreamsService service;
  private final ReleaseBudget budget;
  private final ConfigFollower config;
  private final @Nullable ServiceThread seedSender;

  private FrontierApp(
      StreamsService service,
      ReleaseBudget budget,
      ConfigFollower config,
      @Nullable ServiceThread seedSender) {
    this.service = service;
    this.budget = budget;
    this.config = config;
    this.seedSender = seedSender;
  }

  /**
   * Starts the frontier; returns at once. The seeds of the crawl configuration's sites and of
   * {@code frontier.seeds} are sent to crawl.discovered (in the background), so a deployment's
   * crawl.yaml is all it takes to crawl its sites; a seed the frontier knows already changes
   * nothing, so each start sending them again is harmless. A start that fails stops what it had
   * started.
   */
  public static FrontierApp start(FrontierConfig config) {
    return start(config, CompletableFuture.completedFuture(null));
  }

  /**
   * {@link #start(FrontierConfig)} with a configuration being applied meanwhile ({@code crawler
   * crawl --config}): the instance is built, and its changelogs made, while {@code configApplied}
   * is still pending; the configurations applied so far are read once it is done, before the
   * instance joins its group, so the first record is decided under the configuration applied.
   *
   * @param configApplied completes once the configurations applied may be read: once the one being
   *     applied is on crawl.config, or at once when none was before and it is this instance's own
   *     file (the instance then decides under that file's version, {@link
   *     FrontierConfig#fileVersion()}, and reading it later changes nothing); failed, the start
   *     fails
   */
  public static FrontierApp start(FrontierConfig config, CompletableFuture<?> configApplied) {
    ReleaseBudget budget = ReleaseBudget.of(config.settings().maxPages());
    ActiveConfig active = new ActiveConfig(config.settings().crawl(), config.fileVersion());
    var topology =
        FrontierTopology.build(
            config.topics(), config.settings(), active, budget, CrawlMetrics.registry());
    AtomicReference<@Nullable ConfigFollower> follower = new AtomicReference<>();
    StreamsService service;
    try {
      service =
          StreamsService.start(
              config,
              topology,
              () -> {
                configApplied.join();
                follower.set(
                    ConfigFollower.start(
                        ClientSettings.of(config),
                        config.topics().config(),
                        active,
                        config::withSettings));
              });
    } catch (RuntimeException e) {
      ConfigFollower following = follower.get();
      if (following != null) {
        following.close();
      }
      throw e instanceof CompletionException && e.getCause() instanceof RuntimeException cause
          ? cause
          : e;
    }
    List<String> seeds = new ArrayList<>(config.settings().seeds());
    seeds.addAll(config.settings().crawl().seeds());
    ServiceThread sender =
        seeds.isEmpty()
            ? null
            : ServiceThread.start("frontier-seeds", () -> sendSeeds(config, seeds));
    return new FrontierApp(service, budget, Objects.requireNonNull(follower.get()), sender);
  }

  private static void sendSeeds(FrontierConfig config, List<String> configured) {
    List<String> seeds = new ArrayList<>();
    for (String seed : configured) {
      try {
        seeds.add(UrlNormalizer.normalize(seed));
      } catch (InvalidUrlException e) {
        LOG.warn("not a seed URL, skipped: {} ({})", seed, e.getMessage());
      }
    }
    try {
      Seeds.send(config.kafkaProperties(), config.topics(), seeds, Instant.now());
      LOG.info(
          "{} seeds of the configuration sent to {}",
          seeds.size(),
          config.topics().discovered().name());
    } catch (RuntimeException e) {
      LOG.error(
          "cannot send the configuration's seeds to {}: {}",
          config.topics().discovered().name(),
          e.toString());
    }
  }

  /**
   * Runs the frontier until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("frontier", args, FrontierConfig::new, FrontierApp::start);
  }

  /**
   * The crawl's progress from this instance's stores (its own partitions only).
   *
   * @return empty while the stores are not queryable (starting, rebalancing)
   */
  public Optional<FrontierProgress> progress() {
    try {
      ReadOnlyKeyValueStore<String, OriginState> origins =
          service
              .streams()
              .store(
                  StoreQueryParameters.fromNameAndType(
                      FrontierTopology.ORIGINS_STORE, QueryableStoreTypes.keyValueStore()));
      ReadOnlyKeyValueStore<String, String> operator =
          service
              .streams()
              .store(
                  StoreQueryParameters.fromNameAndType(
                      FrontierTopology.OPERATOR_STORE, QueryableStoreTypes.keyValueStore()));
      // origins an operator paused or blocked count as paused: the crawl is idle without them
      OperatorHolds holds = FrontierTopology.holdsIn(operator);
      long count = 0;
      long queued = 0;
      long paused = 0;
      long inFlight = 0;
      Instant now = Instant.now();
      try (KeyValueIterator<String, OriginState> all = origins.all()) {
        while (all.hasNext()) {
          KeyValue<String, OriginState> entry = all.next();
          count++;
          queued += entry.value.getTail() - entry.value.getHead();
          if (entry.value.getPausedUntil().isAfter(now) || holds.isHeld(entry.key)) {
            paused += entry.value.getTail() - entry.value.getHead();
          }
          inFlight += entry.value.getInFlight();
        }
      }
      return Optional.of(
          new FrontierProgress(
              count, queued, paused, inFlight, budget.released(), budget.isSpent()));
    } catch (InvalidStateStoreException e) {
      return Optional.empty();
    }
  }

  /** The running Kafka Streams instance. */
  public StreamsService streamsService() {
    return service;
  }

  @Override
  public String name() {
    return service.name();
  }

  @Override
  public boolean isRunning() {
    return service.isRunning();
  }

  /** Not alive when Kafka Streams is not, or the crawl configuration is no longer followed. */
  @Override
  public Optional<String> livenessProblem() {
    return service.livenessProblem().or(config::livenessProblem);
  }

  @Override
  public List<HealthCheck> readinessChecks() {
    return service.readinessChecks();
  }

  @Override
  public void bindMetrics(MeterRegistry registry) {
    service.bindMetrics(registry);
  }

  @Override
  public void close() {
    if (seedSender != null) {
      seedSender.join(Duration.ofSeconds(30));
    }
    config.close();
    service.close();
  }
}
