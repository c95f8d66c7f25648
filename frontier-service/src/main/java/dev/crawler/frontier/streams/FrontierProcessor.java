package dev.crawler.frontier.streams;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.url.RegisteredDomain;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.OriginStats;
import dev.crawler.events.Outcome;
import dev.crawler.events.SiteBudgetStep;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.RefreshSchedule;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.rules.ScopeCheck;
import dev.crawler.frontier.rules.UrlTraps;
import dev.crawler.frontier.state.Lease;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every URL's state and releases fetch requests per origin through a window of leases. One
 * instance per stream task; the task owns the origins of its partition.
 *
 * <p>A discovered URL is normalized, decided by the crawl configuration's rules ({@link
 * RuleEngine}), and queued in its origin's queue. An origin releases its queue's head while it has
 * fewer leases than its window. An outcome ends the lease with its request id and returns the
 * credit (or queues the URL again for a retry); an outcome with any other id is late and changes
 * nothing. A lease whose outcome never comes expires after the lease timeout and its URL is
 * released again.
 */
final class FrontierProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {

  private static final Logger LOG = LoggerFactory.getLogger(FrontierProcessor.class);

  static final String SERVICE = "frontier";

  /** The control store's key for when errors were last cleared. */
  static final String ERRORS_CLEARED_AT = "errors-cleared-at";

  /**
   * The control store's key prefix of a site's count of admitted URLs (kept in the partition of
   * {@link #siteKey}).
   */
  static final String SITE_ADMITTED = "site-admitted ";

  /** How often the figures of the origins that changed are published on crawl.stats. */
  static final Duration STATS_INTERVAL = Duration.ofSeconds(5);

  /** How often leases are checked for expiry, at most. */
  static final Duration MAX_LEASE_CHECK_INTERVAL = Duration.ofSeconds(30);

  private final FrontierSettings settings;
  private final ReleaseBudget budget;
  private final RuleEngine rules;

  /** Whether the crawl configuration turns continuous refresh on anywhere (decided once). */
  private final boolean isRefreshConfigured;

  /** The seeds, parsed once; each task adds which origins a seed named. */
  private final ScopeCheck seedScope;

  private final FrontierMetrics metrics;
  private final CrawlLog log;

  /** Origins whose state changed since their figures were last published. */
  private final Set<String> changedOrigins = new HashSet<>();

  /** Origins of this task with figures in {@link #metrics}. */
  private final Set<String> reported = new HashSet<>();

  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private @Nullable KeyValueStore<String, UrlState> urls;
  private @Nullable KeyValueStore<String, OriginState> origins;
  private @Nullable KeyValueStore<String, String> queue;
  private @Nullable KeyValueStore<String, Lease> leases;
  private @Nullable KeyValueStore<String, Long> control;
  private @Nullable KeyValueStore<String, String> due;

  FrontierProcessor(
      FrontierSettings settings, ReleaseBudget budget, FrontierMetrics metrics, CrawlLog log) {
    this.log = log;
    this.settings = settings;
    this.budget = budget;
    this.metrics = metrics;
    this.rules = new RuleEngine(settings.crawl());
    this.isRefreshConfigured = settings.crawl().assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL);
    List<String> allSeeds = new ArrayList<>(settings.seeds());
    allSeeds.addAll(settings.crawl().seeds());
    this.seedScope = ScopeCheck.ofSeeds(allSeeds);
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.urls = context.getStateStore(FrontierTopology.URLS_STORE);
    this.origins = context.getStateStore(FrontierTopology.ORIGINS_STORE);
    this.queue = context.getStateStore(FrontierTopology.QUEUE_STORE);
    this.leases = context.getStateStore(FrontierTopology.LEASES_STORE);
    this.control = context.getStateStore(FrontierTopology.CONTROL_STORE);
    this.due = context.getStateStore(FrontierTopology.DUE_STORE);
    Duration interval = settings.leaseTimeout().dividedBy(4);
    if (interval.compareTo(MAX_LEASE_CHECK_INTERVAL) > 0) {
      interval = MAX_LEASE_CHECK_INTERVAL;
    }
    context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, this::expireLeases);
    context.schedule(STATS_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::publishStats);
    reportStored();
  }

  @Override
  public void close() {
    metrics.forget(reported);
    reported.clear();
  }

  /** The task's origins as stored, into the gauges (one pass over the origins at task start). */
  private void reportStored() {
    Instant now = now();
    try (KeyValueIterator<String, OriginState> all = origins().all()) {
      while (all.hasNext()) {
        KeyValue<String, OriginState> entry = all.next();
        metrics.update(stats(entry.key, entry.value, now));
        reported.add(entry.key);
      }
    }
    metrics.refresh();
  }

  /** Publishes on crawl.stats the figures of the origins that changed since the last time. */
  private void publishStats(long wallClockMillis) {
    if (changedOrigins.isEmpty()) {
      return;
    }
    Instant now = Instant.ofEpochMilli(wallClockMillis);
    for (String origin : changedOrigins) {
      OriginState state = origins().get(origin);
      if (state != null) {
        OriginStats stats = stats(origin, state, now);
        forward(FrontierTopology.STATS_SINK, origin, stats, now);
        metrics.update(stats);
        reported.add(origin);
      }
    }
    changedOrigins.clear();
    metrics.refresh();
  }

  private static OriginStats stats(String origin, OriginState state, Instant now) {
    String site;
    try {
      site = RegisteredDomain.of(URI.create(origin).getHost());
    } catch (RuntimeException e) {
      site = origin;
    }
    return OriginStats.newBuilder()
        .setOrigin(origin)
        .setSite(site)
        .setInScope(state.getInScope())
        .setQueued(state.getTail() - state.getHead())
        .setInFlight(state.getInFlight())
        .setReleased(state.getReleased())
        .setPausedUntil(state.getPausedUntil())
        .setDelayMillis(state.getDelayMillis())
        .setAdmitted(state.getAdmitted())
        .setOriginBudget(state.getOriginBudget())
        .setSiteBudget(state.getSiteBudget())
        .setDone(new HashMap<>(state.getDone()))
        .setUpdatedAt(now)
        .build();
  }

  /** Stores an origin's state; its figures are published at the next stats tick. */
  private void saveOrigin(String origin, OriginState state) {
    origins().put(origin, state);
    changedOrigins.add(origin);
  }

  @Override
  public void process(Record<String, SpecificRecord> record) {
    SpecificRecord value = record.value();
    if (value instanceof DiscoveredUrl discovered) {
      onDiscovered(record.key(), discovered);
    } else if (value instanceof CrawlOutcome outcome) {
      onOutcome(outcome);
    } else if (value instanceof ControlCommand command) {
      onCommand(command);
    }
    // a null value (tombstone) carries nothing to decide about
  }

  private void onDiscovered(@Nullable String key, DiscoveredUrl discovered) {
    if (discovered.getSiteBudget() != null) {
      onSiteBudget(discovered);
      return;
    }
    Instant now = now();
    String url;
    String origin;
    try {
      url = UrlNormalizer.normalize(discovered.getUrl());
      origin = Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      String raw = discovered.getUrl().strip();
      String detail =
          UrlNormalizer.isHttp(raw) || !raw.contains(":")
              ? "MALFORMED_URL " + e.getMessage()
              : "UNSUPPORTED_SCHEME " + raw.substring(0, raw.indexOf(':'));
      log(
          key == null ? "" : key,
          Decision.of(raw, Outcome.FILTERED, detail)
              .withRule("link rule: scheme")
              .withDepth(discovered.getDepth()),
          discovered,
          now);
      return;
    }
    if (!origin.equals(key)) {
      // written under another key: send it on to the partition that owns its origin
      discovered.setUrl(url);
      forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
      return;
    }
    OriginState originState = originState(origin);
    boolean isSeed = discovered.getKind() == UrlKind.SEED;
    boolean isNewlyInScope = isSeed && !originState.getInScope();
    if (isNewlyInScope) {
      originState.setInScope(true);
    }
    boolean isQueued = false;
    UrlState known = urls().get(url);
    if (known != null && discovered.getKind() == UrlKind.RECRAWL) {
      if (known.getStatus() == UrlStatus.DONE || known.getStatus() == UrlStatus.ERROR) {
        // the recrawl scheduler (seed 000) asks for this URL now: released at once, whatever its
        // due time
        requeue(origin, originState, url, known);
        release(origin, originState, now);
        saveOrigin(origin, originState);
      }
      return; // waiting or in flight already: it is being fetched
    }
    if (known != null && known.getStatus() == UrlStatus.ERROR) {
      if (known.getDecidedAt().toEpochMilli() > errorsClearedAt()) {
        // an error blacklists the URL until an operator clears the errors (seed 001)
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
        log(origin, decision, discovered, now);
      } else {
        known = null; // errors were cleared since: decided again as a new URL
      }
    }
    if (known != null
        && known.getStatus() == UrlStatus.DONE
        && known.getDueAt().toEpochMilli() > 0
        && known.getAwaitingLinkSince().toEpochMilli() == 0) {
      Instant lastModified = discovered.getSitemapLastModified();
      if (lastModified != null && lastModified.isAfter(known.getDecidedAt())) {
        // the sitemap says the page changed since it was fetched: it is due now
        requeue(origin, originState, url, known);
        isQueued = true;
      } else if (known.getDueAt().isAfter(now) && !known.getPrematureLogged()) {
        known.setPrematureLogged(true);
        urls().put(url, known);
        log(
            origin,
            Decision.of(url, Outcome.PREMATURE, "due at " + known.getDueAt())
                .withDepth(discovered.getDepth()),
            discovered,
            now);
      }
    }
    if (known != null
        && known.getStatus() == UrlStatus.DONE
        && known.getAwaitingLinkSince().toEpochMilli() > 0) {
      // a recrawl waits for this URL to be linked again: it is, so it is fetched again
      requeue(origin, originState, url, known);
      isQueued = true;
    }
    // a URL seen again changes nothing otherwise: the first state takes precedence (seed 001)
    if (known == null) {
      int calendarHops = calendarHops(url, discovered);
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
        if (admit(origin, originState, url, state, resolution, now)
            == Admission.OVER_ORIGIN_BUDGET) {
          String detail =
              "BUDGET_ORIGIN "
                  + originState.getAdmitted()
                  + " URLs of "
                  + origin
                  + " admitted, the most max-pages-per-origin allows";
          String rule =
              "max-pages-per-origin set by "
                  + resolution.options().get(CrawlOption.MAX_PAGES_PER_ORIGIN).setBy();
          urls().put(url, rejectedByBudget(state, detail, now));
          log(
              origin,
              Decision.of(url, Outcome.FILTERED, detail)
                  .withRule(rule)
                  .withDepth(discovered.getDepth()),
              discovered,
              now);
        }
        isQueued = true; // the origin's budget figures changed at least
      } else if (resolution.isLogged()) {
        Outcome outcome = resolution.outcome().orElseThrow();
        String detail = resolution.detail().orElse(null);
        urls()
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
        log(origin, resolution.rule().map(decision::withRule).orElse(decision), discovered, now);
      }
      // filtered or disallowed without the log flag: no record of it is kept (seed 004)
    }
    if (isNewlyInScope) {
      discoverSitemapXml(origin, now);
    }
    // most discovered URLs are known already: then nothing changed and nothing is written
    if (isNewlyInScope || isQueued) {
      release(origin, originState, now);
      saveOrigin(origin, originState);
    }
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
    UrlState from = urls().get(source);
    return (from == null ? 0 : from.getCalendarHops()) + 1;
  }

  /** What became of a URL the rules crawl, under its budgets. */
  private enum Admission {
    /** Queued to be fetched. */
    QUEUED,
    /** Waiting for the answer of the partition that counts its site ({@link #onSiteBudget}). */
    RESERVING,
    /** Not admitted: its origin's budget is spent; its state is left to the caller. */
    OVER_ORIGIN_BUDGET
  }

  /**
   * A URL the rules crawl, admitted under its origin's and its site's budgets (sitemaps are not
   * counted): queued, or held while the partition that counts the site decides, or not admitted. An
   * admitted URL's state is stored.
   */
  private Admission admit(
      String origin,
      OriginState originState,
      String url,
      UrlState state,
      Resolution resolution,
      Instant now) {
    if (!UrlKind.SITEMAP.name().equals(state.getKind())) {
      long originBudget = resolution.get(CrawlOption.MAX_PAGES_PER_ORIGIN);
      long siteBudget = resolution.get(CrawlOption.MAX_PAGES_PER_SITE);
      originState.setOriginBudget(originBudget);
      originState.setSiteBudget(siteBudget);
      if (originBudget >= 0 && originState.getAdmitted() >= originBudget) {
        return Admission.OVER_ORIGIN_BUDGET;
      }
      originState.setAdmitted(originState.getAdmitted() + 1);
      if (siteBudget >= 0) {
        // the site's count lives in the partition of its key: the URL waits for its answer
        state.setStatus(UrlStatus.RESERVING);
        urls().put(url, state);
        DiscoveredUrl reserve =
            DiscoveredUrl.newBuilder()
                .setUrl(url)
                .setSourceUrl(state.getSourceUrl())
                .setDepth(state.getDepth())
                .setKind(kindOf(state))
                .setDiscoveredAt(now)
                .setSiteBudget(SiteBudgetStep.RESERVE)
                .build();
        forward(FrontierTopology.DISCOVERED_SINK, siteKey(url), reserve, now);
        return Admission.RESERVING;
      }
    }
    state.setStatus(UrlStatus.QUEUED);
    state.setBudgetRejected(false);
    urls().put(url, state);
    enqueue(origin, originState, url);
    return Admission.QUEUED;
  }

  /**
   * The state of a URL past a budget: done, FILTERED, known so that it is not decided again when
   * found again.
   */
  private static UrlState rejectedByBudget(UrlState state, String detail, Instant now) {
    state.setStatus(UrlStatus.DONE);
    state.setOutcome(Outcome.FILTERED.name());
    state.setDetail(detail);
    state.setDecidedAt(now);
    state.setBudgetRejected(true);
    return state;
  }

  /**
   * A step of admitting a URL under its site's budget. RESERVE comes to the partition of the site's
   * key, where the site's count is kept: a place is given while the count is under the budget. The
   * answer goes back to the URL's origin, where GRANTED queues the URL and DENIED logs it FILTERED
   * and gives the origin's place back. One partition decides for a site, so the budget is exact.
   */
  private void onSiteBudget(DiscoveredUrl step) {
    Instant now = now();
    String url = step.getUrl();
    String origin = Origin.keyOf(url);
    if (step.getSiteBudget() == SiteBudgetStep.RESERVE) {
      String counter = SITE_ADMITTED + siteOf(url);
      Long counted = control().get(counter);
      long admitted = counted == null ? 0 : counted;
      long budget = rules.optionsFor(url, step.getDepth()).get(CrawlOption.MAX_PAGES_PER_SITE);
      boolean isGranted = budget < 0 || admitted < budget;
      if (isGranted) {
        control().put(counter, admitted + 1);
      }
      step.setSiteBudget(isGranted ? SiteBudgetStep.GRANTED : SiteBudgetStep.DENIED);
      forward(FrontierTopology.DISCOVERED_SINK, origin, step, now);
      return;
    }
    UrlState state = urls().get(url);
    if (state == null || state.getStatus() != UrlStatus.RESERVING) {
      return; // an answer that came twice: the URL moved on
    }
    OriginState originState = originState(origin);
    if (step.getSiteBudget() == SiteBudgetStep.GRANTED) {
      state.setStatus(UrlStatus.QUEUED);
      state.setBudgetRejected(false);
      urls().put(url, state);
      enqueue(origin, originState, url);
      release(origin, originState, now);
    } else {
      originState.setAdmitted(originState.getAdmitted() - 1);
      Resolution resolution = rules.optionsFor(url, step.getDepth());
      String detail =
          "BUDGET_SITE "
              + siteOf(url)
              + " has admitted "
              + resolution.get(CrawlOption.MAX_PAGES_PER_SITE)
              + " URLs, the most max-pages-per-site allows";
      String rule =
          "max-pages-per-site set by "
              + resolution.options().get(CrawlOption.MAX_PAGES_PER_SITE).setBy();
      urls().put(url, rejectedByBudget(state, detail, now));
      log(
          origin,
          Decision.of(url, Outcome.FILTERED, detail).withRule(rule).withDepth(step.getDepth()),
          step,
          now);
    }
    saveOrigin(origin, originState);
  }

  /**
   * The key under which a site's budget is counted: a space, which no origin contains, then the
   * site.
   */
  static String siteKey(String url) {
    return "site " + siteOf(url);
  }

  /** A URL's site: the registered domain of its host (the host itself when it has none). */
  private static String siteOf(String url) {
    return RegisteredDomain.of(URI.create(url).getHost());
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
      forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
    }
  }

  private void onCommand(ControlCommand command) {
    if (command.getCommand() == ControlCommandType.RECRAWL_ALL) {
      recrawlAll(command);
    }
    if (command.getCommand() == ControlCommandType.RECRAWL_ORPHANS) {
      handleOrphans(command);
    }
    if (command.getCommand() == ControlCommandType.CLEAR_ERRORS) {
      control().put(ERRORS_CLEARED_AT, context().currentSystemTimeMs());
      LOG.info(
          "errors cleared by {}: blacklisted URLs are queued again when next discovered",
          command.getIssuedBy());
    }
  }

  /**
   * Every URL this task knows that is not waiting or in flight is decided again by the crawl
   * configuration: still crawled, it is queued to be fetched once more (its document is then
   * updated, unchanged or deleted by what the fetch says); now filtered or out of scope, its
   * outcome goes to the committer, which deletes a published document. One pass over the task's
   * URLs, when the operator asks.
   */
  private void recrawlAll(ControlCommand command) {
    Instant now = now();
    List<KeyValue<String, UrlState>> known =
        urlsWhere(
            state -> state.getStatus() == UrlStatus.DONE || state.getStatus() == UrlStatus.ERROR);
    Map<String, OriginState> changed = new HashMap<>();
    int queued = 0;
    for (KeyValue<String, UrlState> entry : known) {
      String url = entry.key;
      UrlState state = entry.value;
      String origin = Origin.keyOf(url);
      OriginState originState = changed.computeIfAbsent(origin, this::originState);
      boolean isSeed = UrlKind.SEED.name().equals(state.getKind());
      boolean isSitemap = UrlKind.SITEMAP.name().equals(state.getKind());
      Resolution resolution =
          rules.resolve(
              url,
              state.getDepth(),
              isSeed ? ScopeCheck.ANY : scopeOf(origin, originState),
              isSitemap,
              state.getCalendarHops());
      if (state.getBudgetRejected()) {
        // never admitted: admitted now if the budgets allow (raised since), else left as it is
        if (resolution.isCrawled()
            && admit(origin, originState, url, state, resolution, now)
                != Admission.OVER_ORIGIN_BUDGET) {
          queued++;
        }
      } else if (!resolution.isCrawled()) {
        if (resolution.outcome().isPresent()
            && !resolution.outcome().get().name().equals(state.getOutcome())) {
          // newly filtered or out of scope: the committer deletes a published document
          Decision decision =
              Decision.of(url, resolution.outcome().get(), resolution.detail().orElse(null))
                  .withDepth(state.getDepth());
          decide(
              origin, url, state, resolution.rule().map(decision::withRule).orElse(decision), now);
        }
      } else if (state.getStatus() == UrlStatus.DONE
          && !isSeed
          && !isSitemap
          && resolution.get(CrawlOption.ORPHANS) != CrawlOption.Orphans.PROCESS) {
        // orphans ignore or delete: fetched again only when a page links to it during the recrawl
        state.setAwaitingLinkSince(now);
        urls().put(url, state);
      } else {
        requeue(origin, originState, url, state);
        queued++;
      }
    }
    releaseAll(changed, now);
    LOG.info(
        "recrawl of every known URL asked by {}: {} of {} queued again",
        command.getIssuedBy(),
        queued,
        known.size());
  }

  /**
   * The recrawl is over: URLs still waiting to be linked again are orphans (seed 002), handled by
   * their orphans option: ignore leaves them (their documents stay), delete sends an {@code ORPHAN}
   * outcome to the committer, which deletes their documents, process fetches them again after all.
   */
  private void handleOrphans(ControlCommand command) {
    Instant now = now();
    List<KeyValue<String, UrlState>> waiting =
        urlsWhere(
            state ->
                state.getStatus() == UrlStatus.DONE
                    && state.getAwaitingLinkSince().toEpochMilli() > 0);
    Map<String, OriginState> changed = new HashMap<>();
    for (KeyValue<String, UrlState> entry : waiting) {
      String url = entry.key;
      UrlState state = entry.value;
      String origin = Origin.keyOf(url);
      state.setAwaitingLinkSince(Instant.EPOCH);
      switch (rules.optionsFor(url, state.getDepth()).get(CrawlOption.ORPHANS)) {
        case PROCESS ->
            requeue(origin, changed.computeIfAbsent(origin, this::originState), url, state);
        case DELETE ->
            decide(
                origin,
                url,
                state,
                Decision.of(url, Outcome.ORPHAN, "no page links to it any more")
                    .withDepth(state.getDepth())
                    .withRule("orphans: delete"),
                now);
        case IGNORE -> urls().put(url, state);
      }
    }
    releaseAll(changed, now);
    LOG.info("recrawl over ({}): {} orphans", command.getIssuedBy(), waiting.size());
  }

  /** The URLs of this task whose state matches (one pass over the store, for operator commands). */
  private List<KeyValue<String, UrlState>> urlsWhere(
      java.util.function.Predicate<UrlState> filter) {
    List<KeyValue<String, UrlState>> matching = new ArrayList<>();
    try (KeyValueIterator<String, UrlState> all = urls().all()) {
      while (all.hasNext()) {
        KeyValue<String, UrlState> entry = all.next();
        if (filter.test(entry.value)) {
          matching.add(entry);
        }
      }
    }
    return matching;
  }

  /**
   * A known URL is decided without a fetch: its state says so, and the outcome goes to the
   * committer and the log.
   */
  private void decide(String origin, String url, UrlState state, Decision decision, Instant now) {
    state.setStatus(UrlStatus.DONE);
    state.setOutcome(decision.outcome().name());
    state.setDetail(decision.detail().orElse(null));
    state.setDecidedAt(now);
    urls().put(url, state);
    emit(origin, decision, now);
  }

  /** Writes a frontier decision to crawl.outcomes (for the committer) and crawl.log. */
  private void emit(String origin, Decision decision, Instant now) {
    forward(FrontierTopology.OUTCOMES_SINK, origin, decision.toOutcome(SERVICE, now).build(), now);
    forward(FrontierTopology.LOG_SINK, origin, log.entry(decision, now), now);
  }

  /** Releases what the windows of these origins allow, and stores them. */
  private void releaseAll(Map<String, OriginState> changed, Instant now) {
    changed.forEach(
        (origin, originState) -> {
          release(origin, originState, now);
          saveOrigin(origin, originState);
        });
  }

  /** When an operator last cleared the errors, in epoch milliseconds; 0 when never. */
  private long errorsClearedAt() {
    Long cleared = control().get(ERRORS_CLEARED_AT);
    return cleared == null ? 0 : cleared;
  }

  /** The scope as this task knows it: the origin is in scope when a seed named it. */
  private ScopeCheck scopeOf(String origin, OriginState originState) {
    boolean isSeedOrigin = originState.getInScope();
    return seedScope.withSeedOrigins(candidate -> isSeedOrigin && candidate.equals(origin));
  }

  /** The options resolved for a URL, as the fetch request carries them. */
  private Map<String, String> requestOptions(String url, int depth) {
    Map<String, String> options = new HashMap<>();
    rules
        .optionsFor(url, depth)
        .options()
        .forEach(
            (option, setting) -> {
              // the others concern the frontier alone, or no single request (site and global ones)
              if (option.isCarriedByRequests()) {
                options.put(option.name(), option.toRequestValue(setting.value()));
              }
            });
    return options;
  }

  private void onOutcome(CrawlOutcome outcome) {
    if (SERVICE.equals(outcome.getService())) {
      return;
    }
    UrlState state = urls().get(outcome.getUrl());
    if (state == null
        || state.getStatus() != UrlStatus.IN_FLIGHT
        || !state.getRequestId().equals(outcome.getRequestId())) {
      // an outcome of an expired lease, or a second one for the same request: the URL moved on
      LOG.debug(
          "ignoring late outcome {} of {} (request {})",
          outcome.getOutcome(),
          outcome.getUrl(),
          outcome.getRequestId());
      return;
    }
    Instant now = now();
    String origin = Origin.keyOf(outcome.getUrl());
    OriginState originState = originState(origin);
    leases().delete(leaseKey(origin, outcome.getRequestId()));
    originState.setInFlight(originState.getInFlight() - 1);
    if (outcome.getOriginDelayMillis() != null) {
      originState.setDelayMillis(outcome.getOriginDelayMillis());
    }
    if (outcome.getRetryAt() != null
        && outcome.getRetryAt().isAfter(originState.getPausedUntil())) {
      if (!originState.getPausedUntil().isAfter(now)) {
        LOG.info(
            "{}: holding its queue until {} ({})",
            origin,
            outcome.getRetryAt(),
            outcome.getDetail());
      }
      originState.setPausedUntil(outcome.getRetryAt());
    }
    if (outcome.getEtag() != null || outcome.getLastModified() != null) {
      state.setEtag(outcome.getEtag());
      state.setLastModified(outcome.getLastModified());
    }
    if (outcome.getOutcome() == Outcome.DEFERRED) {
      // not attempted (the origin is paused or not due): queued again, and the attempt does not
      // count
      state.setStatus(UrlStatus.QUEUED);
      state.setAttempt(Math.max(0, state.getAttempt() - 1));
      enqueue(origin, originState, outcome.getUrl());
    } else if (settings.isRetried(outcome.getOutcome(), state.getAttempt())) {
      state.setStatus(UrlStatus.QUEUED);
      enqueue(origin, originState, outcome.getUrl());
    } else {
      state.setStatus(
          FrontierSettings.isError(outcome.getOutcome()) ? UrlStatus.ERROR : UrlStatus.DONE);
      state.setOutcome(outcome.getOutcome().name());
      originState.getDone().merge(outcome.getOutcome().name(), 1L, Long::sum);
      state.setDetail(outcome.getDetail());
      state.setDecidedAt(now);
      scheduleRefresh(outcome.getUrl(), state, outcome.getOutcome(), now);
      if (outcome.getOutcome() == Outcome.NETWORK_ERROR
          || outcome.getOutcome() == Outcome.RATE_LIMITED) {
        // the retries are spent: this crawl's fetch of the URL failed (the committer's deletion
        // grace counts it)
        String detail =
            "gave up after "
                + state.getAttempt()
                + " attempts"
                + (outcome.getDetail() == null ? "" : ": " + outcome.getDetail());
        CrawlOutcome gaveUp =
            Decision.of(outcome.getUrl(), outcome.getOutcome(), detail)
                .withRequest(outcome.getRequestId(), outcome.getDepth(), outcome.getAttempt())
                .toOutcome(SERVICE, now)
                .build();
        forward(FrontierTopology.OUTCOMES_SINK, origin, gaveUp, now);
      }
    }
    urls().put(outcome.getUrl(), state);
    release(origin, originState, now);
    saveOrigin(origin, originState);
  }

  /** Releases the origin's queue head while its window and the budget allow. */
  private void release(String origin, OriginState originState, Instant now) {
    if (originState.getPausedUntil().isAfter(now)) {
      return; // the fetcher asked to leave the origin alone until then; the lease check releases it
      // after
    }
    int window = settings.window(originState.getDelayMillis());
    while (originState.getInFlight() < window
        && originState.getHead() < originState.getTail()
        && budget.tryAcquire()) {
      String queueKey = queueKey(origin, originState.getHead());
      String url = queue().get(queueKey);
      queue().delete(queueKey);
      originState.setHead(originState.getHead() + 1);
      UrlState state = url == null ? null : urls().get(url);
      if (url == null || state == null || state.getStatus() != UrlStatus.QUEUED) {
        budget.giveBack();
        continue;
      }
      int attempt = state.getAttempt() + 1;
      String requestId = Long.toString(now.toEpochMilli(), 36) + "-" + originState.getReleased();
      state.setStatus(UrlStatus.IN_FLIGHT);
      state.setAttempt(attempt);
      state.setRequestId(requestId);
      state.setReleasedAt(now);
      urls().put(url, state);
      leases().put(leaseKey(origin, requestId), new Lease(url, now));
      originState.setInFlight(originState.getInFlight() + 1);
      originState.setReleased(originState.getReleased() + 1);
      FetchRequest request =
          FetchRequest.newBuilder()
              .setUrl(url)
              .setRequestId(requestId)
              .setDepth(state.getDepth())
              .setAttempt(attempt)
              .setReleasedAt(now)
              .setKind(kindOf(state))
              .setIfNoneMatch(state.getEtag())
              .setIfModifiedSince(state.getLastModified())
              .setOptions(requestOptions(url, state.getDepth()))
              .build();
      forward(FrontierTopology.FETCH_REQUESTS_SINK, origin, request, now);
    }
  }

  private static UrlKind kindOf(UrlState state) {
    try {
      return UrlKind.valueOf(state.getKind());
    } catch (IllegalArgumentException e) {
      return UrlKind.LINK;
    }
  }

  /**
   * Continuous refresh: the URL is fetched again {@link RefreshSchedule#next its interval} after
   * this fetch ended; its due time goes in the time-ordered store {@value
   * FrontierTopology#DUE_STORE}.
   */
  private void scheduleRefresh(String url, UrlState state, Outcome outcome, Instant now) {
    if (!isRefreshConfigured && state.getDueAt().toEpochMilli() == 0) {
      return; // no refresh anywhere in the configuration: no rules to resolve per URL
    }
    Resolution resolution = rules.optionsFor(url, state.getDepth());
    RefreshSchedule schedule =
        new RefreshSchedule(
            resolution.get(CrawlOption.RECRAWL_INTERVAL_PER_URL),
            resolution.get(CrawlOption.RECRAWL_ADAPTIVE),
            resolution.get(CrawlOption.RECRAWL_MIN_INTERVAL),
            resolution.get(CrawlOption.RECRAWL_MAX_INTERVAL),
            resolution.get(CrawlOption.RECRAWL_ERROR_INTERVAL));
    if (state.getDueAt().toEpochMilli() > 0) {
      due().delete(dueKey(state.getDueAt(), url));
    }
    OptionalLong minutes =
        schedule.next(outcome, state.getRefreshMinutes(), state.getChangeFrequency());
    if (minutes.isEmpty()) {
      state.setDueAt(Instant.EPOCH);
      return;
    }
    Instant dueAt = now.plus(Duration.ofMinutes(minutes.getAsLong()));
    state.setRefreshMinutes(minutes.getAsLong());
    state.setDueAt(dueAt);
    state.setPrematureLogged(false);
    due().put(dueKey(dueAt, url), url);
  }

  /** Queues again the URLs whose due time has come (one range scan of the due-time index). */
  private void releaseDue(Instant now, Map<String, OriginState> changed) {
    List<KeyValue<String, String>> ripe = new ArrayList<>();
    try (KeyValueIterator<String, String> range =
        due().range(dueKey(Instant.EPOCH, ""), dueKey(now, "~"))) {
      while (range.hasNext()) {
        ripe.add(range.next());
      }
    }
    for (KeyValue<String, String> entry : ripe) {
      due().delete(entry.key);
      String url = entry.value;
      UrlState state = urls().get(url);
      if (state == null
          || (state.getStatus() != UrlStatus.DONE && state.getStatus() != UrlStatus.ERROR)
          || state.getDueAt().isAfter(now)) {
        continue; // fetched meanwhile, or rescheduled
      }
      String origin = Origin.keyOf(url);
      requeue(origin, changed.computeIfAbsent(origin, this::originState), url, state);
    }
  }

  /**
   * Queues a known URL to be fetched once more (a due time, a recrawl): a fresh round of attempts.
   */
  private void requeue(String origin, OriginState originState, String url, UrlState state) {
    if (state.getDueAt().toEpochMilli() > 0) {
      due().delete(dueKey(state.getDueAt(), url));
    }
    state.setDueAt(Instant.EPOCH);
    state.setAwaitingLinkSince(Instant.EPOCH);
    state.setStatus(UrlStatus.QUEUED);
    state.setAttempt(0);
    urls().put(url, state);
    enqueue(origin, originState, url);
  }

  /** The due-time index key: zero-padded epoch millis, a space, the URL. */
  static String dueKey(Instant dueAt, String url) {
    String digits = Long.toString(dueAt.toEpochMilli());
    return "0".repeat(Math.max(0, 19 - digits.length())) + digits + ' ' + url;
  }

  /** Releases again the URLs whose lease expired, and releases whatever the windows allow. */
  private void expireLeases(long wallClockMillis) {
    Instant now = Instant.ofEpochMilli(wallClockMillis);
    Instant expiredBefore = now.minus(settings.leaseTimeout());
    List<KeyValue<String, Lease>> expired = new ArrayList<>();
    try (KeyValueIterator<String, Lease> all = leases().all()) {
      while (all.hasNext()) {
        KeyValue<String, Lease> entry = all.next();
        if (entry.value.getReleasedAt().isBefore(expiredBefore)) {
          expired.add(entry);
        }
      }
    }
    Map<String, OriginState> changed = new HashMap<>();
    releaseDue(now, changed);
    for (KeyValue<String, Lease> lease : expired) {
      String origin = lease.key.substring(0, lease.key.indexOf(' '));
      String requestId = lease.key.substring(origin.length() + 1);
      OriginState originState = changed.computeIfAbsent(origin, this::originState);
      leases().delete(lease.key);
      originState.setInFlight(originState.getInFlight() - 1);
      String url = lease.value.getUrl();
      UrlState state = urls().get(url);
      if (state != null
          && state.getStatus() == UrlStatus.IN_FLIGHT
          && state.getRequestId().equals(requestId)) {
        LOG.warn(
            "no outcome for {} (request {}) within {}: releasing it again",
            url,
            requestId,
            settings.leaseTimeout());
        state.setStatus(UrlStatus.QUEUED);
        urls().put(url, state);
        enqueue(origin, originState, url);
      }
    }
    if (!budget.isSpent()) {
      // origins left with queued URLs and free credit, e.g. after the budget was given back
      try (KeyValueIterator<String, OriginState> all = origins().all()) {
        while (all.hasNext()) {
          KeyValue<String, OriginState> entry = all.next();
          OriginState candidate = entry.value;
          boolean isDue = !candidate.getPausedUntil().isAfter(now);
          if (candidate.getHead() < candidate.getTail()
              && candidate.getInFlight() < settings.window(candidate.getDelayMillis())
              && isDue) {
            changed.putIfAbsent(entry.key, entry.value);
          }
        }
      }
    }
    releaseAll(changed, now);
  }

  /** The lease entry key: the origin, a space, the request id. */
  static String leaseKey(String origin, String requestId) {
    return origin + ' ' + requestId;
  }

  private void enqueue(String origin, OriginState originState, String url) {
    queue().put(queueKey(origin, originState.getTail()), url);
    originState.setTail(originState.getTail() + 1);
  }

  private OriginState originState(String origin) {
    OriginState state = origins().get(origin);
    return state != null ? state : OriginState.newBuilder().build();
  }

  private static UrlState.Builder newState(DiscoveredUrl discovered, Instant now) {
    return UrlState.newBuilder()
        .setChangeFrequency(discovered.getSitemapChangeFrequency())
        .setDepth(discovered.getDepth())
        .setKind(discovered.getKind().name())
        .setSourceUrl(discovered.getSourceUrl())
        .setFirstSeenAt(now);
  }

  private void log(String origin, Decision decision, DiscoveredUrl discovered, Instant now) {
    Decision withSource =
        discovered.getSourceUrl() == null
            ? decision
            : decision.withSource(discovered.getSourceUrl());
    forward(FrontierTopology.LOG_SINK, origin, log.entry(withSource, now), now);
  }

  private void forward(String sink, String key, SpecificRecord value, Instant now) {
    context().forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  /**
   * The queue entry key: the origin, a space (which no origin contains), the zero-padded sequence
   * number.
   */
  static String queueKey(String origin, long sequence) {
    String digits = Long.toString(sequence);
    return origin + ' ' + "0".repeat(19 - digits.length()) + digits;
  }

  private Instant now() {
    return Instant.ofEpochMilli(context().currentSystemTimeMs());
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return java.util.Objects.requireNonNull(context, "not initialized");
  }

  private KeyValueStore<String, UrlState> urls() {
    return java.util.Objects.requireNonNull(urls, "not initialized");
  }

  private KeyValueStore<String, OriginState> origins() {
    return java.util.Objects.requireNonNull(origins, "not initialized");
  }

  private KeyValueStore<String, String> queue() {
    return java.util.Objects.requireNonNull(queue, "not initialized");
  }

  private KeyValueStore<String, Long> control() {
    return java.util.Objects.requireNonNull(control, "not initialized");
  }

  private KeyValueStore<String, String> due() {
    return java.util.Objects.requireNonNull(due, "not initialized");
  }

  private KeyValueStore<String, Lease> leases() {
    return java.util.Objects.requireNonNull(leases, "not initialized");
  }
}
