package dev.crawler.frontier.streams;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.Outcome;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.OriginWindow;
import dev.crawler.frontier.domain.RefreshSchedule;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.domain.RenderRouting;
import dev.crawler.frontier.domain.TaskRules;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.state.Lease;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases fetch requests through each origin's window ({@link OriginWindow}): the queue's head
 * goes out as a lease while the window has room and the instance's budget allows; a lease whose
 * outcome never comes expires and its URL is released again; a URL whose refresh is due is queued
 * again. The options a request carries are resolved at its release, so a changed configuration
 * applies to the URLs already queued.
 */
final class Releases {

  private static final Logger LOG = LoggerFactory.getLogger(Releases.class);

  private final FrontierSettings settings;
  private final ReleaseBudget budget;
  private final TaskRules rules;
  private final FrontierStores stores;
  private final FrontierOutput output;
  private final OperatorHolds holds;

  Releases(
      FrontierSettings settings,
      ReleaseBudget budget,
      TaskRules rules,
      FrontierStores stores,
      FrontierOutput output,
      OperatorHolds holds) {
    this.settings = settings;
    this.budget = budget;
    this.rules = rules;
    this.stores = stores;
    this.output = output;
    this.holds = holds;
  }

  /** Releases the origin's queue head while its window and the budget allow. */
  void release(String origin, OriginState originState, Instant now) {
    if (holds.isHeld(origin)) {
      return; // paused or blocked by an operator: released again when resumed
    }
    if (OriginWindow.isHeld(originState, now)) {
      return; // the fetcher asked to leave the origin alone until then; the lease check releases
      // it after
    }
    int window = settings.window(originState.getDelayMillis());
    while (OriginWindow.hasRoom(originState, window) && budget.tryAcquire()) {
      String queueKey = FrontierStores.queueKey(origin, originState.getHead());
      String url = stores.queue.get(queueKey);
      stores.queue.delete(queueKey);
      originState.setHead(originState.getHead() + 1);
      UrlState state = url == null ? null : stores.urls.get(url);
      if (url == null
          || state == null
          || state.getStatus() != UrlStatus.QUEUED
          || !isStillCrawled(origin, originState, url, state, now)) {
        budget.giveBack();
        continue;
      }
      lease(origin, originState, url, state, now);
    }
  }

  /**
   * Whether a queued URL is still crawled under the configuration in force: a URL queued under
   * another is decided again before it goes out, and one the new rules filter (or put out of scope)
   * ends with that outcome instead of a request, so a configuration applied reaches the URLs
   * already queued.
   */
  private boolean isStillCrawled(
      String origin, OriginState originState, String url, UrlState state, Instant now) {
    if (rules.version().equals(state.getDecidedUnder())) {
      return true;
    }
    Resolution resolution = rules.decideAgain(url, origin, originState.getInScope(), state);
    if (resolution.isCrawled()) {
      state.setDecidedUnder(rules.version());
      return true;
    }
    Outcome outcome = resolution.outcome().orElse(Outcome.FILTERED);
    Decision decision =
        Decision.of(url, outcome, resolution.detail().orElse(null))
            .withDepth(state.getDepth())
            .withRule(
                resolution
                    .rule()
                    .map(rule -> rule + " (configuration " + rules.version() + ")")
                    .orElse("configuration " + rules.version()));
    state.setStatus(UrlStatus.DONE);
    state.setOutcome(outcome.name());
    state.setDetail(decision.detail().orElse(null));
    state.setDecidedAt(now);
    stores.urls.put(url, state);
    output.emit(origin, decision, now);
    return false;
  }

  /** The URL goes out: a lease, and its fetch request. */
  private void lease(
      String origin, OriginState originState, String url, UrlState state, Instant now) {
    int attempt = state.getAttempt() + 1;
    String requestId = Long.toString(now.toEpochMilli(), 36) + "-" + originState.getReleased();
    state.setStatus(UrlStatus.IN_FLIGHT);
    state.setAttempt(attempt);
    state.setRequestId(requestId);
    state.setReleasedAt(now);
    stores.urls.put(url, state);
    stores.leases.put(FrontierStores.leaseKey(origin, requestId), new Lease(url, now));
    originState.setInFlight(originState.getInFlight() + 1);
    originState.setReleased(originState.getReleased() + 1);
    FetchRequest request =
        FetchRequest.newBuilder()
            .setUrl(url)
            .setRequestId(requestId)
            .setDepth(state.getDepth())
            .setAttempt(attempt)
            .setReleasedAt(now)
            .setKind(UrlLifecycle.kindOf(state))
            .setIfNoneMatch(state.getEtag())
            .setIfModifiedSince(state.getLastModified())
            .setOptions(requestOptions(origin, url, state.getDepth()))
            .build();
    output.request(
        RenderRouting.isRendered(request.getOptions(), state, originState)
            ? FrontierTopology.RENDER_REQUESTS_SINK
            : FrontierTopology.FETCH_REQUESTS_SINK,
        origin,
        request,
        now);
  }

  /** Releases what the windows of these origins allow, and stores them. */
  void releaseAll(Map<String, OriginState> changed, Instant now) {
    changed.forEach(
        (origin, originState) -> {
          release(origin, originState, now);
          stores.saveOrigin(origin, originState);
        });
  }

  /** The options resolved for a URL, as the fetch request carries them. */
  private Map<String, String> requestOptions(String origin, String url, int depth) {
    Map<String, String> options = rules.requestOptions(url, depth);
    OptionalLong delay = holds.delayMillisOf(origin);
    if (delay.isPresent()) {
      // an operator's delay for the origin, until the configuration changes
      options.put(CrawlOption.DELAY_MS.name(), Long.toString(delay.getAsLong()));
    }
    return options;
  }

  /**
   * Continuous refresh: the URL is fetched again {@link RefreshSchedule#next its interval} after
   * this fetch ended; its due time goes in the time-ordered store {@value
   * FrontierTopology#DUE_STORE}.
   */
  void scheduleRefresh(String url, UrlState state, Outcome outcome, Instant now) {
    if (!rules.isRefreshConfigured() && state.getDueAt().toEpochMilli() == 0) {
      return; // no refresh anywhere in the configuration: no rules to resolve per URL
    }
    // resolved after the fetch: the configuration may have changed since the URL was discovered
    Resolution resolution = rules.optionsFor(url, state.getDepth());
    RefreshSchedule schedule =
        new RefreshSchedule(
            resolution.get(CrawlOption.RECRAWL_INTERVAL_PER_URL),
            resolution.get(CrawlOption.RECRAWL_ADAPTIVE),
            resolution.get(CrawlOption.RECRAWL_MIN_INTERVAL),
            resolution.get(CrawlOption.RECRAWL_MAX_INTERVAL),
            resolution.get(CrawlOption.RECRAWL_ERROR_INTERVAL));
    if (state.getDueAt().toEpochMilli() > 0) {
      stores.due.delete(FrontierStores.dueKey(state.getDueAt(), url));
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
    stores.due.put(FrontierStores.dueKey(dueAt, url), url);
  }

  /** Queues again the URLs whose due time has come (one range scan of the due-time index). */
  private void releaseDue(Instant now, Map<String, OriginState> changed) {
    List<KeyValue<String, String>> ripe = new ArrayList<>();
    try (KeyValueIterator<String, String> range =
        stores.due.range(
            FrontierStores.dueKey(Instant.EPOCH, ""), FrontierStores.dueKey(now, "~"))) {
      while (range.hasNext()) {
        ripe.add(range.next());
      }
    }
    for (KeyValue<String, String> entry : ripe) {
      stores.due.delete(entry.key);
      String url = entry.value;
      UrlState state = stores.urls.get(url);
      if (state == null
          || (state.getStatus() != UrlStatus.DONE && state.getStatus() != UrlStatus.ERROR)
          || state.getDueAt().isAfter(now)) {
        continue; // fetched meanwhile, or rescheduled
      }
      String origin = Origin.keyOf(url);
      stores.requeue(origin, changed.computeIfAbsent(origin, stores::originState), url, state);
    }
  }

  /** Releases again the URLs whose lease expired, and releases whatever the windows allow. */
  void expireLeases(long wallClockMillis) {
    Instant now = Instant.ofEpochMilli(wallClockMillis);
    Map<String, OriginState> changed = new HashMap<>();
    List<KeyValue<String, Lease>> expired = expiredLeases(now.minus(settings.leaseTimeout()));
    releaseDue(now, changed);
    for (KeyValue<String, Lease> lease : expired) {
      String origin = lease.key.substring(0, lease.key.indexOf(' '));
      String requestId = lease.key.substring(origin.length() + 1);
      OriginState originState = changed.computeIfAbsent(origin, stores::originState);
      stores.leases.delete(lease.key);
      originState.setInFlight(originState.getInFlight() - 1);
      String url = lease.value.getUrl();
      UrlState state = stores.urls.get(url);
      if (state != null
          && state.getStatus() == UrlStatus.IN_FLIGHT
          && state.getRequestId().equals(requestId)) {
        LOG.warn(
            "no outcome for {} (request {}) within {}: releasing it again",
            url,
            requestId,
            settings.leaseTimeout());
        state.setStatus(UrlStatus.QUEUED);
        stores.urls.put(url, state);
        stores.enqueue(origin, originState, url);
      }
    }
    if (!budget.isSpent()) {
      addReleasable(changed, now);
    }
    releaseAll(changed, now);
  }

  private List<KeyValue<String, Lease>> expiredLeases(Instant expiredBefore) {
    List<KeyValue<String, Lease>> expired = new ArrayList<>();
    try (KeyValueIterator<String, Lease> all = stores.leases.all()) {
      while (all.hasNext()) {
        KeyValue<String, Lease> entry = all.next();
        if (entry.value.getReleasedAt().isBefore(expiredBefore)) {
          expired.add(entry);
        }
      }
    }
    return expired;
  }

  /** Origins left with queued URLs and free credit, e.g. after the budget was given back. */
  private void addReleasable(Map<String, OriginState> changed, Instant now) {
    try (KeyValueIterator<String, OriginState> all = stores.origins.all()) {
      while (all.hasNext()) {
        KeyValue<String, OriginState> entry = all.next();
        OriginState candidate = entry.value;
        if (OriginWindow.canRelease(candidate, settings.window(candidate.getDelayMillis()), now)
            && !holds.isHeld(entry.key)) {
          changed.putIfAbsent(entry.key, entry.value);
        }
      }
    }
  }
}
