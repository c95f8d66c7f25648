package dev.crawler.frontier.streams;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.OriginWindow;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.domain.UrlLifecycle.AfterFetch;
import dev.crawler.frontier.domain.UrlLifecycle.Rediscovery;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.rules.ScopeCheck;
import dev.crawler.frontier.rules.UrlTraps;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 * rules), and applied to the task's stores ({@link FrontierStores}) with the help of {@link
 * Releases}, {@link SiteBudgets}, {@link OperatorCommands} and {@link OriginFigures}.
 *
 * <p>A discovered URL is normalized (unless it says it is already: the parser's links), decided by
 * the crawl configuration's rules ({@link RuleEngine}), and queued in its origin's queue. An origin
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
  private RuleEngine rules;

  /** The seeds, parsed once; each task adds which origins a seed named. */
  private ScopeCheck seedScope;

  /** The configuration in force, which an operator may change while the task runs. */
  private final ActiveConfig active;

  private final FrontierMetrics metrics;
  private final CrawlLog log;

  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private @Nullable FrontierStores stores;
  private @Nullable FrontierOutput output;
  private @Nullable Releases releases;
  private @Nullable SiteBudgets budgets;
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
    this.rules = new RuleEngine(configured.crawl());
    List<String> allSeeds = new ArrayList<>(configured.seeds());
    allSeeds.addAll(configured.crawl().seeds());
    this.seedScope = ScopeCheck.ofSeeds(allSeeds);
  }

  /** Wires what decides with the rules; again when the configuration changes. */
  private void wire() {
    FrontierStores stores = stores();
    FrontierOutput output = output();
    output.configVersion(settings.crawl().version());
    this.releases = new Releases(settings, budget, rules, stores, output, holds);
    this.budgets = new SiteBudgets(rules, stores, output, releases);
    this.commands =
        new OperatorCommands(
            rules,
            stores,
            output,
            releases,
            budgets,
            this::resolveKnown,
            holds,
            settings.crawl().version(),
            context().taskId().toString());
  }

  /**
   * Switches to the configuration an operator applied since the last record, if any: every later
   * decision of the task uses it (acknowledged in the crawl log).
   */
  private void followConfig() {
    CrawlConfig current = active.current();
    if (current == settings.crawl()) {
      return;
    }
    String before = settings.crawl().version();
    configure(settings.withCrawl(current));
    wire();
    commands().configurationInForce(before, active.appliedBy(), active.appliedVersion());
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.stores = new FrontierStores(context);
    this.output = new FrontierOutput(context, log);
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
    followConfig();
    SpecificRecord value = record.value();
    if (value instanceof DiscoveredUrl discovered) {
      if (discovered.getSiteBudget() != null) {
        budgets().onStep(discovered);
      } else {
        onDiscovered(record.key(), discovered);
      }
    } else if (value instanceof CrawlOutcome outcome) {
      onOutcome(outcome);
    } else if (value instanceof ControlCommand command) {
      commands().on(command, context().currentSystemTimeMs());
    }
    // a null value (tombstone) carries nothing to decide about
  }

  private void onDiscovered(@Nullable String key, DiscoveredUrl discovered) {
    Instant now = output().now();
    String url;
    String origin;
    try {
      // the parser's links come normalized: a second pass was a sixth of this thread's time
      url =
          discovered.getNormalized()
              ? discovered.getUrl()
              : UrlNormalizer.normalize(discovered.getUrl());
      origin = Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      logUnsupported(key, discovered, e, now);
      return;
    }
    if (!origin.equals(key)) {
      // written under another key: send it on to the partition that owns its origin
      discovered.setUrl(url);
      discovered.setNormalized(true);
      output().forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
      return;
    }
    onDiscovered(origin, url, discovered, now);
  }

  /**
   * A discovered URL of this task's origins: decided as new, or as the known URL it is ({@link
   * UrlLifecycle#rediscovered}); its origin releases what it can and is stored when it changed.
   */
  private void onDiscovered(String origin, String url, DiscoveredUrl discovered, Instant now) {
    OriginState originState = stores().originState(origin);
    boolean isNewlyInScope = discovered.getKind() == UrlKind.SEED && !originState.getInScope();
    if (isNewlyInScope) {
      originState.setInScope(true);
    }
    UrlState known = stores().urls.get(url);
    Rediscovery rediscovery =
        known == null
            ? Rediscovery.DECIDE_AGAIN
            : UrlLifecycle.rediscovered(
                known,
                discovered.getKind(),
                discovered.getSitemapLastModified(),
                stores().errorsClearedAt(),
                now);
    boolean isQueued =
        switch (rediscovery) {
          case RECRAWL_NOW -> {
            // the recrawl scheduler (seed 000) asks for this URL now: released at once, whatever
            // its due time
            stores().requeue(origin, originState, url, Objects.requireNonNull(known));
            releases().release(origin, originState, now);
            stores().saveOrigin(origin, originState);
            yield false;
          }
          case BEING_FETCHED -> false;
          case DECIDE_AGAIN -> decideNew(origin, originState, url, discovered, now);
          case CHANGED_SINCE_FETCH, LINKED_AGAIN -> {
            stores().requeue(origin, originState, url, Objects.requireNonNull(known));
            yield true;
          }
          case BLACKLISTED -> {
            logBlacklisted(origin, url, Objects.requireNonNull(known), discovered, now);
            yield false;
          }
          case PREMATURE -> {
            logPremature(origin, url, Objects.requireNonNull(known), discovered, now);
            yield false;
          }
          case KNOWN -> false; // the first state takes precedence (seed 001)
        };
    if (rediscovery == Rediscovery.RECRAWL_NOW || rediscovery == Rediscovery.BEING_FETCHED) {
      return; // a recrawl's request: nothing else to do
    }
    if (isNewlyInScope) {
      discoverSitemapXml(origin, now);
    }
    // most discovered URLs are known already: then nothing changed and nothing is written
    if (isNewlyInScope || isQueued) {
      releases().release(origin, originState, now);
      stores().saveOrigin(origin, originState);
    }
  }

  private void logUnsupported(
      @Nullable String key, DiscoveredUrl discovered, InvalidUrlException e, Instant now) {
    String raw = discovered.getUrl().strip();
    String detail =
        UrlNormalizer.isHttp(raw) || !raw.contains(":")
            ? "MALFORMED_URL " + e.getMessage()
            : "UNSUPPORTED_SCHEME " + raw.substring(0, raw.indexOf(':'));
    output()
        .log(
            key == null ? "" : key,
            Decision.of(raw, Outcome.FILTERED, detail)
                .withRule("link rule: scheme")
                .withDepth(discovered.getDepth()),
            discovered,
            now);
  }

  /** An error blacklists the URL until an operator clears the errors (seed 001). */
  private void logBlacklisted(
      String origin, String url, UrlState known, DiscoveredUrl discovered, Instant now) {
    Decision decision =
        Decision.of(
                url,
                Outcome.BLACKLISTED,
                "earlier "
                    + known.getOutcome()
                    + " ("
                    + known.getDetail()
                    + "); cleared by crawler errors clear")
            .withDepth(discovered.getDepth());
    output().log(origin, decision, discovered, now);
  }

  /** A known URL not yet due for its refresh (seed 002): logged once per due time. */
  private void logPremature(
      String origin, String url, UrlState known, DiscoveredUrl discovered, Instant now) {
    known.setPrematureLogged(true);
    stores().urls.put(url, known);
    output()
        .log(
            origin,
            Decision.of(url, Outcome.PREMATURE, "due at " + known.getDueAt())
                .withDepth(discovered.getDepth()),
            discovered,
            now);
  }

  /**
   * A URL this task does not know (or knows no longer, its error cleared) is decided by the rules:
   * crawled (admitted under its budgets), logged and kept as decided, or dropped without a record
   * (seed 004). Returns whether its origin's state changed.
   */
  private boolean decideNew(
      String origin, OriginState originState, String url, DiscoveredUrl discovered, Instant now) {
    int calendarHops = calendarHops(url, discovered);
    boolean isSeed = discovered.getKind() == UrlKind.SEED;
    Resolution resolution =
        rules.resolve(
            url,
            discovered.getDepth(),
            isSeed ? ScopeCheck.ANY : scopeOf(origin, originState),
            discovered.getKind() == UrlKind.SITEMAP,
            calendarHops);
    if (resolution.isCrawled()) {
      UrlState state =
          newState(discovered, now)
              .setCalendarHops(calendarHops)
              .setStatus(UrlStatus.QUEUED)
              .build();
      if (budgets().admit(origin, originState, url, state, resolution, now)
          == SiteBudgets.Admission.OVER_ORIGIN_BUDGET) {
        budgets()
            .rejectOverOriginBudget(origin, originState, url, state, resolution, discovered, now);
      }
      return true; // the origin's budget figures changed at least
    }
    if (resolution.isLogged()) {
      Outcome outcome = resolution.outcome().orElseThrow();
      String detail = resolution.detail().orElse(null);
      stores()
          .urls
          .put(
              url,
              newState(discovered, now)
                  .setCalendarHops(calendarHops)
                  .setStatus(UrlStatus.DONE)
                  .setOutcome(outcome.name())
                  .setDetail(detail)
                  .setDecidedAt(now)
                  .build());
      Decision decision = Decision.of(url, outcome, detail).withDepth(discovered.getDepth());
      output()
          .log(origin, resolution.rule().map(decision::withRule).orElse(decision), discovered, now);
    }
    // filtered or disallowed without the log flag: no record of it is kept (seed 004)
    return false;
  }

  /**
   * How many links in a row led to the URL between dated URLs of its template (a calendar's next
   * day, {@link UrlTraps#datedTemplate}): its source's count plus one when the source has the same
   * template, else 0. Only new URLs found on a page are asked, so the source's state is one store
   * read.
   */
  private int calendarHops(String url, DiscoveredUrl discovered) {
    String source = discovered.getSourceUrl();
    if (source == null
        || discovered.getKind() == UrlKind.SEED
        || discovered.getKind() == UrlKind.SITEMAP) {
      return 0;
    }
    Optional<String> template = UrlTraps.datedTemplate(url);
    if (template.isEmpty() || !template.equals(UrlTraps.datedTemplate(source))) {
      return 0;
    }
    UrlState from = stores().urls.get(source);
    return (from == null ? 0 : from.getCalendarHops()) + 1;
  }

  /**
   * A seed's origin came into scope: its /sitemap.xml is read once, unless the sitemap-xml option
   * is off (seed 002).
   */
  private void discoverSitemapXml(String origin, Instant now) {
    String sitemap = origin + "/sitemap.xml";
    if (rules.optionsFor(sitemap, 0).get(CrawlOption.SITEMAP_XML)) {
      DiscoveredUrl discovered =
          DiscoveredUrl.newBuilder()
              .setUrl(sitemap)
              .setDepth(0)
              .setKind(UrlKind.SITEMAP)
              .setDiscoveredAt(now)
              .build();
      output().forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
    }
  }

  /** A known URL decided again (a recrawl of every URL), in the scope the task knows. */
  private Resolution resolveKnown(
      String url, String origin, OriginState originState, UrlState state) {
    boolean isSeed = UrlKind.SEED.name().equals(state.getKind());
    return rules.resolve(
        url,
        state.getDepth(),
        isSeed ? ScopeCheck.ANY : scopeOf(origin, originState),
        UrlKind.SITEMAP.name().equals(state.getKind()),
        state.getCalendarHops());
  }

  /** The scope as this task knows it: the origin is in scope when a seed named it. */
  private ScopeCheck scopeOf(String origin, OriginState originState) {
    boolean isSeedOrigin = originState.getInScope();
    return seedScope.withSeedOrigins(candidate -> isSeedOrigin && candidate.equals(origin));
  }

  private void onOutcome(CrawlOutcome outcome) {
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
    String origin = Origin.keyOf(outcome.getUrl());
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

  private static UrlState.Builder newState(DiscoveredUrl discovered, Instant now) {
    return UrlState.newBuilder()
        .setChangeFrequency(discovered.getSitemapChangeFrequency())
        .setDepth(discovered.getDepth())
        .setKind(discovered.getKind().name())
        .setSourceUrl(discovered.getSourceUrl())
        .setFirstSeenAt(now);
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

  private OperatorCommands commands() {
    return Objects.requireNonNull(commands, "not initialized");
  }
}
