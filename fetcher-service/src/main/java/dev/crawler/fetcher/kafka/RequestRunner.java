package dev.crawler.fetcher.kafka;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.Outcome;
import dev.crawler.fetcher.domain.Feedback;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.FetchPath;
import dev.crawler.fetcher.domain.FetchVerdict;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OriginPoliteness;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.options.RequestOptions.Head;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the origins' requests: starts each ready origin's next request when its politeness allows
 * (robots.txt first when its rules are missing or expired; HEAD before GET when the options ask),
 * tells the origin's politeness how each ended ({@link OriginFeedback}), and ends each request with
 * what it gave, a fetch result for the parser or an outcome ({@link RequestEnds}). Requests an
 * origin cannot serve for a long while, or that an operator holds ({@link HeldOrigins}), go back to
 * the frontier as {@code DEFERRED}. HTTP is asynchronous: completions come back to the loop's
 * thread through {@link LoopTasks}, so no origin waits for another. The loop's thread owns it.
 */
final class RequestRunner {

  private static final Logger LOG = LoggerFactory.getLogger(RequestRunner.class);

  private final FetchPath pages;
  private final boolean readsTdmRep;
  private final Origins origins;
  private final PageFetcher fetcher;
  private final RobotsPolicy robots;
  private final RequestEnds ends;
  private final ResultWriter writer;
  private final FetchRecords records;
  private final PartitionOffsets offsets;
  private final LoopTasks tasks;
  private final FetcherMetrics metrics;
  private final OriginFeedback feedback;
  private final HeldOrigins held;
  private final InstantSource clock;
  private final int maxInFlight;
  private final long maxHoldMillis;
  private int inFlight;

  /**
   * @param ends where the requests end, their results written
   * @param maxInFlight requests in flight at most, over all origins
   * @param maxHold the longest a request waits here for its origin; beyond, it is deferred
   */
  RequestRunner(
      Origins origins,
      PageFetcher fetcher,
      RobotsPolicy robots,
      RequestEnds ends,
      ResultWriter writer,
      FetchRecords records,
      PartitionOffsets offsets,
      LoopTasks tasks,
      FetcherMetrics metrics,
      InstantSource clock,
      int maxInFlight,
      Duration maxHold,
      OperatorView operators,
      FetchPath pages,
      boolean readsTdmRep) {
    this.pages = pages;
    this.readsTdmRep = readsTdmRep;
    this.origins = origins;
    this.fetcher = fetcher;
    this.robots = robots;
    this.ends = ends;
    this.writer = writer;
    this.records = records;
    this.offsets = offsets;
    this.tasks = tasks;
    this.metrics = metrics;
    this.feedback = new OriginFeedback(origins, metrics);
    this.held = new HeldOrigins(operators);
    this.clock = clock;
    this.maxInFlight = maxInFlight;
    this.maxHoldMillis = maxHold.toMillis();
  }

  /**
   * Gives back the waiting requests of the origins an operator paused or blocked ({@code DEFERRED},
   * kept queued by the frontier); returns how many. Requests already running end as they would.
   */
  int withdrawHeld(Predicate<String> covered) {
    int withdrawn = 0;
    long until = clock.millis() + HeldOrigins.OPERATOR_HOLD_MILLIS;
    for (HostQueue<Pending> host : origins.matching(covered)) {
      if (held.isHeld(host.origin())) {
        withdrawn += host.waiting();
        ends.deferWaiting(host, until, held.heldBy(host.origin()));
      }
    }
    return withdrawn;
  }

  /** Requests running over HTTP, robots.txt included. */
  int inFlight() {
    return inFlight;
  }

  /** Starts what may start; returns the milliseconds until the next origin's delay is over. */
  long startReady(long now) {
    long untilNext = Long.MAX_VALUE;
    for (Iterator<HostQueue<Pending>> it = origins.ready();
        it.hasNext() && inFlight < maxInFlight && fetcher.hasRoomForAnotherBody(); ) {
      HostQueue<Pending> host = it.next();
      host.deferral(now, maxHoldMillis)
          .ifPresent(deferral -> ends.deferWaiting(host, deferral.until(), deferral.reason()));
      while (host.hasWaiting()
          && host.isReady(now)
          && inFlight < maxInFlight
          && fetcher.hasRoomForAnotherBody()) {
        startNext(host, now);
      }
      OriginPoliteness politeness = host.politeness();
      if (!host.hasWaiting()
          || host.isFetchingRobots()
          || politeness.inFlight() >= politeness.options().maxConnections()) {
        it.remove(); // put back when a request ends or arrives
      } else if (!host.isReady(now)) {
        untilNext = Math.min(untilNext, host.nextStartAt() - now);
      }
    }
    return untilNext;
  }

  private void startNext(HostQueue<Pending> host, long now) {
    Pending pending = host.peek().orElseThrow();
    if (held.isHeld(host.origin())) {
      ends.deferWaiting(host, now + HeldOrigins.OPERATOR_HOLD_MILLIS, held.heldBy(host.origin()));
      return;
    }
    Optional<String> replaced = held.replacedConfiguration(pending);
    if (replaced.isPresent()) {
      // released under rules an operator replaced since: decided again by the frontier
      host.poll();
      origins.released();
      if (offsets.isOwned(pending.partition())) {
        ends.giveBack(pending, replaced.get());
      }
      return;
    }
    // the options of the request about to go apply to the origin from now on, robots.txt's request
    // included; a delay an operator set after the request's release replaces the one it carries
    host.politeness().options(held.options(host.origin(), pending));
    boolean obeysRobots = pending.options().obeysRobots();
    if (obeysRobots && host.needsRobots(now)) {
      fetchRobots(host, pending); // the request waits in the queue for the rules
      return;
    }
    BaseRobotRules rules = host.robots().orElse(null);
    if (obeysRobots && rules != null && rules.isAllowNone()) {
      // robots.txt could not be read: the origin is not crawled until it can be
      // (RFC 9309 section 2.3.1.4)
      ends.deferWaiting(host, host.robotsExpireAt(), "robots.txt unavailable");
      return;
    }
    if (readsTdmRep && obeysRobots && host.needsTdmRep(now)) {
      // read with robots.txt (a crawl that does not read robots.txt reads neither), once it could
      // be
      // read: a request of its own, after the origin's delay
      fetchTdmRep(host, pending);
      return;
    }
    host.poll();
    origins.released();
    if (!offsets.isOwned(pending.partition())) {
      return; // revoked meanwhile: the partition's new owner fetches it
    }
    if (obeysRobots && rules != null && !RobotsPolicy.isAllowedByRobots(rules, pending.url())) {
      // no request is made, so the origin's delay is not spent:
      // the next waiting request may go at once
      ends.end(
          pending, Decision.of(pending.url(), Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"), null);
      return;
    }
    if (!obeysRobots && host.noticeRobotsIgnored()) {
      LOG.warn(
          "robots.txt of {} is NOT obeyed: the crawl configuration sets obey-robots-txt: false for its URLs",
          host.origin());
    }
    if (origins.pauseOver(host)) {
      LOG.info("{}: pause over, crawling it again", host.origin());
    }
    metrics.waited(now - pending.heldSince());
    fetch(host, pending);
  }

  private void fetchRobots(HostQueue<Pending> host, Pending pending) {
    String url = RobotsPolicy.robotsUrl(host.origin());
    fetchOriginFile(host, pending, url, attempt -> robotsFetched(host, url, attempt));
  }

  /**
   * Requests a file of the origin's own (robots.txt, tdmrep.json) as robots.txt is requested: its
   * redirects bounded, the site's access options for robots.txt, the origin's requests waiting
   * until it is read.
   */
  private void fetchOriginFile(
      HostQueue<Pending> host, Pending pending, String url, Consumer<FetchAttempt> whenRead) {
    host.fetchingRobots(true);
    host.politeness().started();
    inFlight++;
    fetcher
        .fetch(
            new PageFetcher.Call(
                url,
                false,
                Map.of(),
                RobotsPolicy.MAX_REDIRECTS,
                null,
                SiteAccess.of(pending.request().getOptions()).forRobots()))
        .thenAccept(attempt -> tasks.submit(() -> whenRead.accept(attempt)));
  }

  /**
   * Reads the origin's {@code /.well-known/tdmrep.json} (W3C TDMRep), as often as robots.txt: its
   * rules join the usage preferences of the origin's pages. Anything but a 2xx states nothing.
   */
  private void fetchTdmRep(HostQueue<Pending> host, Pending pending) {
    String url = RobotsPolicy.tdmRepUrl(host.origin());
    fetchOriginFile(host, pending, url, attempt -> tdmRepFetched(host, url, attempt));
  }

  private void tdmRepFetched(HostQueue<Pending> host, String url, FetchAttempt attempt) {
    inFlight--;
    long now = clock.millis();
    feedback.ended(host, attempt, now);
    host.tdmRep(RobotsPolicy.tdmRepFrom(attempt), host.robotsExpireAt());
    host.fetchingRobots(false);
    records
        .archived(host.origin(), url, "", ExchangePurpose.TDMREP, attempt)
        .ifPresent(writer::sendUntracked);
    host.politenessChanged(true);
    origins.reschedule(host);
  }

  private void robotsFetched(HostQueue<Pending> host, String url, FetchAttempt attempt) {
    inFlight--;
    long now = clock.millis();
    feedback.ended(host, attempt, now);
    OriginPoliteness politeness = host.politeness();
    BaseRobotRules rules = robots.rulesFrom(url, attempt);
    host.robotsUsage(robots.usageFrom(attempt));
    metrics.robots(!rules.isAllowNone());
    host.robots(rules, now + robots.validity(rules).toMillis());
    host.fetchingRobots(false);
    if (rules.isAllowNone()) {
      LOG.warn(
          "{} could not be read ({}): not crawling {} for {}",
          url,
          OriginFeedback.describe(attempt),
          host.origin(),
          robots.validity(rules));
    }
    OriginPoliteness.Delay delay = politeness.crawlDelay(RobotsPolicy.crawlDelayMillis(rules));
    if (delay.isCapped()) {
      LOG.info(
          "{} asks for a Crawl-delay of {} ms; capped at {} ms (option max-crawl-delay-ms)",
          url,
          RobotsPolicy.crawlDelayMillis(rules).orElse(0),
          politeness.options().maxCrawlDelayMillis());
    }
    records.sitemaps(url, robots.sitemaps(rules)).forEach(writer::sendUntracked);
    records
        .archived(host.origin(), url, "", ExchangePurpose.ROBOTS, attempt)
        .ifPresent(writer::sendUntracked);
    host.politenessChanged(true);
    origins.reschedule(host);
  }

  private void fetch(HostQueue<Pending> host, Pending pending) {
    FetchRequest request = pending.request();
    host.politeness().started();
    inFlight++;
    offsets.started(pending.partition());
    Map<String, String> headers = new HashMap<>();
    if (request.getIfNoneMatch() != null) {
      headers.put("If-None-Match", request.getIfNoneMatch());
    }
    if (request.getIfModifiedSince() != null) {
      headers.put("If-Modified-Since", request.getIfModifiedSince());
    }
    Instant startedAt = clock.instant();
    if (pending.options().head() == Head.DISABLED) {
      get(host, pending, headers, startedAt, Optional.empty());
      return;
    }
    fetcher
        .fetch(call(host, pending, true, Map.of()))
        .thenAccept(
            head ->
                tasks.submit(
                    () -> {
                      if (FetchVerdict.goesOnToGet(head, pending.options().head())) {
                        get(host, pending, headers, startedAt, Optional.of(head));
                      } else {
                        fetched(host, pending, startedAt, head, Optional.empty());
                      }
                    }));
  }

  /**
   * Sends the GET of a pending request.
   *
   * @param head the HEAD request that went first, whose exchanges go to the archive with the GET's
   */
  private void get(
      HostQueue<Pending> host,
      Pending pending,
      Map<String, String> headers,
      Instant startedAt,
      Optional<FetchAttempt> head) {
    fetcher
        .fetch(call(host, pending, false, headers))
        .thenAccept(
            attempt -> tasks.submit(() -> fetched(host, pending, startedAt, attempt, head)));
  }

  /**
   * The request for a pending fetch request, over the tier's path (a HEAD over HTTP), with the
   * metadata filters its options set.
   */
  private PageFetcher.Call call(
      HostQueue<Pending> host, Pending pending, boolean isHead, Map<String, String> headers) {
    FetchOptions options = pending.options();
    return new PageFetcher.Call(
        pending.url(),
        isHead,
        headers,
        options.maxRedirects(),
        options.hasMetadataFilters() ? options : null,
        SiteAccess.of(pending.request().getOptions()),
        isHead ? FetchPath.HTTP : pages,
        options.obeysRobots() ? host.robots().orElse(null) : null);
  }

  private void fetched(
      HostQueue<Pending> host,
      Pending pending,
      Instant startedAt,
      FetchAttempt attempt,
      Optional<FetchAttempt> head) {
    inFlight--;
    if (feedback.ended(host, attempt, clock.millis()).kind() == Feedback.Kind.RATE_LIMITED) {
      metrics.rateLimited();
    }
    host.politenessChanged(true);
    origins.reschedule(host);
    if (attempt instanceof FetchAttempt.Response response) {
      metrics.fetched(response.durationMillis(), response.body().length);
    } else {
      metrics.failed(attempt.durationMillis());
    }
    try {
      ends.write(pending, startedAt, attempt, head);
    } catch (RuntimeException e) {
      LOG.error("cannot handle the response of {}", pending.url(), e);
      ends.end(pending, Decision.of(pending.url(), Outcome.ERROR, e.toString()), null);
    } finally {
      offsets.released(pending.partition());
    }
  }
}
