package dev.crawler.frontier.streams;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.streams.QuietCommit;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Outcome;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.OriginWindow;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.domain.RenderRouting;
import dev.crawler.frontier.domain.TaskRules;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.domain.UrlLifecycle.AfterFetch;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every URL's state and releases fetch requests per origin through a window of leases. One
 * instance per stream task; the task owns the origins of its partition. This class is the wiring:
 * what a record means is decided by the domain ({@link UrlLifecycle}, {@link OriginWindow}, the
 * rules in the task's scope: {@link TaskRules}), and applied to the task's stores ({@link
 * FrontierStores}) with the help of {@link Discoveries}, {@link Releases}, {@link SiteBudgets},
 * {@link OperatorCommands} and {@link OriginFigures}.
 *
 * <p>A discovered URL is decided and queued in its origin's queue ({@link Discoveries}). An origin
 * releases its queue's head while it has fewer leases than its window. An outcome ends the lease
 * with its request id and returns the credit (or queues the URL again for a retry); an outcome with
 * any other id is late and changes nothing. A lease whose outcome never comes expires after the
 * lease timeout and its URL is released again.
 */
final class FrontierProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierProcessor.class);

  static final String SERVICE = "frontier";

  /** How often the figures of the origins that changed are published on crawl.stats. */
  static final Duration STATS_INTERVAL = Duration.ofSeconds(5);

  /** How often a task without records looks for an applied configuration. */
  static final Duration CONFIG_CHECK_INTERVAL = Duration.ofSeconds(1);

  /** How often leases are checked for expiry, at most. */
  static final Duration MAX_LEASE_CHECK_INTERVAL = Duration.ofSeconds(30);

  private FrontierSettings settings;
  private final ReleaseBudget budget;
  private TaskRules rules;

  /** The configuration in force, which an operator may change while the task runs. */
  private final ActiveConfig active;

  private final FrontierMetrics metrics;
  private final CrawlLog log;

  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private QuietCommit quiet = QuietCommit.NEVER;
  private @Nullable FrontierStores stores;
  private @Nullable FrontierOutput output;
  private @Nullable Releases releases;
  private @Nullable SiteBudgets budgets;
  private @Nullable Discoveries discoveries;
  private @Nullable OperatorCommands commands;
  private @Nullable OriginFigures figures;
  private OperatorHolds holds = new OperatorHolds();

  FrontierProcessor(
      FrontierSettings settings, ReleaseBudget budget, FrontierMetrics metrics, CrawlLog log) {
    this(settings, new ActiveConfig(settings.crawl()), budget, metrics, log);
  }

  FrontierProcessor(
      FrontierSettings settings,
      ActiveConfig active,
      ReleaseBudget budget,
      FrontierMetrics metrics,
      CrawlLog log) {
    this.log = log;
    this.active = active;
    this.budget = budget;
    this.metrics = metrics;
    configure(settings.withCrawl(active.current()));
  }

  /** Takes a crawl configuration: the rules, and the scope of its seeds. */
  private void configure(FrontierSettings configured) {
    this.settings = configured;
    this.rules = new TaskRules(configured, active.appliedVersion());
  }

  /** Wires what decides with the rules; again when the configuration changes. */
  private void wire() {
    FrontierStores stores = stores();
    FrontierOutput output = output();
    output.configVersion(rules.version());
    this.releases = new Releases(settings, budget, rules, stores, output, holds);
    this.budgets = new SiteBudgets(rules, stores, output, releases);
    this.discoveries = new Discoveries(rules, stores, output, releases, budgets);
    this.commands =
        new OperatorCommands(
            rules,
            stores,
            output,
            releases,
            budgets,
            holds,
            rules.version(),
            context().taskId().toString());
  }

  /**
   * Switches to the configuration an operator applied since the last record, if any: every later
   * decision of the task uses it (acknowledged in the crawl log).
   */
  private void followConfig() {
    CrawlConfig current = active.current();
    if (current == settings.crawl() && active.appliedVersion().equals(rules.version())) {
      return;
    }
    String before = rules.version();
    configure(settings.withCrawl(current));
    wire();
    commands().configurationInForce(before, active.appliedBy(), active.appliedVersion());
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.stores = new FrontierStores(context);
    this.output = new FrontierOutput(context, log);
    this.quiet = QuietCommit.of(context);
    this.holds = stores.loadHolds();
    wire();
    commands().expireDelaysOfAnotherConfiguration();
    this.figures = new OriginFigures(stores, output, metrics);
    Duration interval = settings.leaseTimeout().dividedBy(4);
    if (interval.compareTo(MAX_LEASE_CHECK_INTERVAL) > 0) {
      interval = MAX_LEASE_CHECK_INTERVAL;
    }
    context.schedule(
        interval,
        PunctuationType.WALL_CLOCK_TIME,
        wallClock -> {
          followConfig();
          releases().expireLeases(wallClock);
        });
    context.schedule(STATS_INTERVAL, PunctuationType.WALL_CLOCK_TIME, figures::publish);
    // a task without records takes an applied configuration within a second all the same
    context.schedule(CONFIG_CHECK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> followConfig());
    figures.reportStored();
  }

  @Override
  public void close() {
    if (figures != null) {
      figures.forget();
    }
  }

  @Override
  public void process(Record<String, SpecificRecord> record) {
    quiet.processed();
    followConfig();
    SpecificRecord value = record.value();
    if (value instanceof DiscoveredUrl discovered) {
      if (discovered.getSiteBudget() != null) {
        budgets().onStep(record.key(), discovered);
      } else {
        discoveries().on(record.key(), discovered);
      }
    } else if (value instanceof CrawlOutcome outcome) {
      onOutcome(record.key(), outcome);
    } else if (value instanceof ControlCommand command) {
      commands().on(command, context().currentSystemTimeMs());
    }
    // a null value (tombstone) carries nothing to decide about
  }

  /** An outcome of a fetch, keyed by the URL's origin. */
  private void onOutcome(@Nullable String key, CrawlOutcome outcome) {
    if (SERVICE.equals(outcome.getService())) {
      return;
    }
    UrlState state = stores().urls.get(outcome.getUrl());
    if (UrlLifecycle.isLate(state, outcome.getRequestId())) {
      // an outcome of an expired lease, or a second one for the same request: the URL moved on
      LOG.debug(
          "ignoring late outcome {} of {} (request {})",
          outcome.getOutcome(),
          outcome.getUrl(),
          outcome.getRequestId());
      return;
    }
    Objects.requireNonNull(state);
    Instant now = output().now();
    String origin = Origin.keyOf(outcome.getUrl(), key);
    OriginState originState = stores().originState(origin);
    stores().leases.delete(FrontierStores.leaseKey(origin, outcome.getRequestId()));
    if (OriginWindow.ended(
        originState, outcome.getOriginDelayMillis(), outcome.getRetryAt(), now)) {
      LOG.info(
          "{}: holding its queue until {} ({})", origin, outcome.getRetryAt(), outcome.getDetail());
    }
    if (outcome.getEtag() != null || outcome.getLastModified() != null) {
      state.setEtag(outcome.getEtag());
      state.setLastModified(outcome.getLastModified());
    }
    applyOutcome(origin, originState, state, outcome, now);
    stores().urls.put(outcome.getUrl(), state);
    if (holds.deletesDocumentsOf(origin) && state.getStatus() != UrlStatus.QUEUED) {
      // fetched before the block reached the fetcher: its document goes too
      commands().blockedWithDocuments(origin, outcome.getUrl(), state, now);
    }
    releases().release(origin, originState, now);
    stores().saveOrigin(origin, originState);
    if (OriginWindow.isDrained(originState)) {
      output().originDone();
    }
  }

  /** What the outcome does to the URL ({@link UrlLifecycle#afterFetch}). */
  private void applyOutcome(
      String origin, OriginState originState, UrlState state, CrawlOutcome outcome, Instant now) {
    Outcome result = outcome.getOutcome();
    AfterFetch after = UrlLifecycle.afterFetch(result, state.getAttempt(), settings);
    switch (after) {
      case QUEUED_AGAIN -> {
        // not attempted: queued again, and the attempt does not count
        state.setStatus(UrlStatus.QUEUED);
        state.setAttempt(Math.max(0, state.getAttempt() - 1));
        stores().enqueue(origin, originState, outcome.getUrl());
      }
      case RETRIED -> {
        state.setStatus(UrlStatus.QUEUED);
        stores().enqueue(origin, originState, outcome.getUrl());
      }
      case RENDER -> {
        state.setStatus(UrlStatus.QUEUED);
        state.setRender(true);
        state.setAttempt(Math.max(0, state.getAttempt() - 1));
        stores().enqueue(origin, originState, outcome.getUrl());
        if (RenderRouting.neededOnePageMore(originState)) {
          LOG.info(
              "{}: {} pages needed a browser: its pages are rendered from now on (render: auto)",
              origin,
              originState.getRenderNeeded());
        }
      }
      case DONE, ERROR -> {
        state.setStatus(after == AfterFetch.ERROR ? UrlStatus.ERROR : UrlStatus.DONE);
        state.setOutcome(result.name());
        originState.getDone().merge(result.name(), 1L, Long::sum);
        state.setDetail(outcome.getDetail());
        state.setDecidedAt(now);
        releases().scheduleRefresh(outcome.getUrl(), state, result, now);
        if (UrlLifecycle.isGivenUp(result)) {
          // this crawl's fetch of the URL failed (the committer's deletion grace counts it)
          CrawlOutcome gaveUp =
              Decision.of(
                      outcome.getUrl(),
                      result,
                      UrlLifecycle.givenUpDetail(state.getAttempt(), outcome.getDetail()))
                  .withRequest(outcome.getRequestId(), outcome.getDepth(), outcome.getAttempt())
                  .toOutcome(SERVICE, now)
                  .build();
          output().forward(FrontierTopology.OUTCOMES_SINK, origin, gaveUp, now);
        }
      }
    }
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return Objects.requireNonNull(context, "not initialized");
  }

  private FrontierStores stores() {
    return Objects.requireNonNull(stores, "not initialized");
  }

  private FrontierOutput output() {
    return Objects.requireNonNull(output, "not initialized");
  }

  private Releases releases() {
    return Objects.requireNonNull(releases, "not initialized");
  }

  private SiteBudgets budgets() {
    return Objects.requireNonNull(budgets, "not initialized");
  }

  private Discoveries discoveries() {
    return Objects.requireNonNull(discoveries, "not initialized");
  }

  private OperatorCommands commands() {
    return Objects.requireNonNull(commands, "not initialized");
  }
}
