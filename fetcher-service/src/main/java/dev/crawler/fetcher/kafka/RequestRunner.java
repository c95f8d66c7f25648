package dev.crawler.fetcher.kafka;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.Outcome;
import dev.crawler.fetcher.domain.Feedback;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchOptions;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the origins' requests: starts each ready origin's next request when its politeness allows
 * (robots.txt first when its rules are missing or expired; HEAD before GET when the options ask),
 * and ends each request with what it gave — a fetch result for the parser, or an outcome — written
 * through the {@link ResultWriter}. Requests an origin cannot serve for a long while go back to the
 * frontier as {@code DEFERRED}. HTTP is asynchronous: completions come back to the loop's thread
 * through {@link LoopTasks}, so no origin waits for another. Owned by the fetch loop's thread.
 */
final class RequestRunner {

  private static final Logger LOG = LoggerFactory.getLogger(RequestRunner.class);

  private final Origins origins;
  private final PageFetcher fetcher;
  private final RobotsPolicy robots;
  private final ResultWriter writer;
  private final FetchRecords records;
  private final PartitionOffsets offsets;
  private final LoopTasks tasks;
  private final FetcherMetrics metrics;
  private final InstantSource clock;
  private final int maxInFlight;
  private final long maxHoldMillis;
  private final OperatorHolds holds;
  private int inFlight;

  /**
   * How long a request an operator's pause or block gives back asks the frontier to wait: the
   * frontier holds the origin by the same command, so this only spaces a retry if it has not seen
   * the command yet.
   */
  static final long OPERATOR_HOLD_MILLIS = 1_000;

  /**
   * @param maxInFlight requests in flight at most, over all origins
   * @param maxHold the longest a request waits here for its origin; beyond, it is deferred
   */
  RequestRunner(
      Origins origins,
      PageFetcher fetcher,
      RobotsPolicy robots,
      ResultWriter writer,
      FetchRecords records,
      PartitionOffsets offsets,
      LoopTasks tasks,
      FetcherMetrics metrics,
      InstantSource clock,
      int maxInFlight,
      Duration maxHold,
      OperatorHolds holds) {
    this.origins = origins;
    this.fetcher = fetcher;
    this.robots = robots;
    this.writer = writer;
    this.records = records;
    this.offsets = offsets;
    this.tasks = tasks;
    this.metrics = metrics;
    this.clock = clock;
    this.maxInFlight = maxInFlight;
    this.maxHoldMillis = maxHold.toMillis();
    this.holds = holds;
  }

  /**
   * Gives back the waiting requests of the origins an operator paused or blocked ({@code DEFERRED},
   * kept queued by the frontier); returns how many. Requests already running end as they would.
   */
  int withdrawHeld(java.util.function.Predicate<String> covered) {
    int withdrawn = 0;
    long until = clock.millis() + OPERATOR_HOLD_MILLIS;
    for (HostQueue<Pending> host : origins.matching(covered)) {
      if (holds.isHeld(host.origin())) {
        withdrawn += host.waiting();
        deferWaiting(host, until, heldBy(host.origin()));
      }
    }
    return withdrawn;
  }

  private String heldBy(String origin) {
    OperatorHolds.Hold hold =
        holds
            .newest(OperatorHolds.Kind.BLOCK, origin)
            .filter(OperatorHolds.Hold::isOn)
            .or(() -> holds.newest(OperatorHolds.Kind.PAUSE, origin))
            .orElseThrow();
    return (hold.kind() == OperatorHolds.Kind.BLOCK ? "blocked" : "paused")
        + " by "
        + hold.issuedBy();
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
          .ifPresent(deferral -> deferWaiting(host, deferral.until(), deferral.reason()));
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
    if (holds.isHeld(host.origin())) {
      deferWaiting(host, now + OPERATOR_HOLD_MILLIS, heldBy(host.origin()));
      return;
    }
    // the options of the request about to go apply to the origin from now on, robots.txt's request
    // included; a delay an operator set after the request's release replaces the one it carries
    host.politeness().options(withOperatorDelay(host.origin(), pending));
    boolean obeysRobots = pending.options().obeysRobots();
    if (obeysRobots && host.needsRobots(now)) {
      fetchRobots(host, pending); // the request waits in the queue for the rules
      return;
    }
    BaseRobotRules rules = host.robots().orElse(null);
    if (obeysRobots && rules != null && rules.isAllowNone()) {
      // robots.txt could not be read: the origin is not crawled until it can be (RFC 9309 section
      // 2.3.1.4)
      deferWaiting(host, host.robotsExpireAt(), "robots.txt unavailable");
      return;
    }
    host.poll();
    origins.released();
    if (!offsets.isOwned(pending.partition())) {
      return; // revoked meanwhile: the partition's new owner fetches it
    }
    if (obeysRobots && rules != null && !RobotsPolicy.isAllowedByRobots(rules, pending.url())) {
      // no request is made, so the origin's delay is not spent: the next waiting request may go at
      // once
      end(pending, Decision.of(pending.url(), Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"), null);
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

  private FetchOptions withOperatorDelay(String origin, Pending pending) {
    if (holds.isEmpty()) {
      return pending.options();
    }
    Optional<OperatorHolds.Hold> delay = holds.delayOf(origin);
    if (delay.isEmpty()
        || pending.request().getReleasedAt().toEpochMilli() >= delay.get().issuedAt()) {
      return pending.options(); // released after the command: the frontier's options say it
    }
    return pending.options().withDelay(delay.get().value());
  }

  private void fetchRobots(HostQueue<Pending> host, Pending pending) {
    String url = RobotsPolicy.robotsUrl(host.origin());
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
        .thenAccept(attempt -> tasks.submit(() -> robotsFetched(host, url, attempt)));
  }

  private void robotsFetched(HostQueue<Pending> host, String url, FetchAttempt attempt) {
    inFlight--;
    long now = clock.millis();
    OriginPoliteness politeness = host.politeness();
    Feedback feedback = Feedback.of(attempt, Instant.ofEpochMilli(now));
    onChange(host, politeness.ended(endedAt(now), feedback), describe(attempt));
    BaseRobotRules rules = robots.rulesFrom(url, attempt);
    metrics.robots(!rules.isAllowNone());
    host.robots(rules, now + robots.validity(rules).toMillis());
    host.fetchingRobots(false);
    if (rules.isAllowNone()) {
      LOG.warn(
          "{} could not be read ({}): not crawling {} for {}",
          url,
          describe(attempt),
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
      get(host, pending, headers, startedAt);
      return;
    }
    fetcher
        .fetch(call(pending, true, Map.of()))
        .thenAccept(
            head ->
                tasks.submit(
                    () -> {
                      if (FetchVerdict.goesOnToGet(head, pending.options().head())) {
                        get(host, pending, headers, startedAt);
                      } else {
                        fetched(host, pending, startedAt, head);
                      }
                    }));
  }

  private void get(
      HostQueue<Pending> host, Pending pending, Map<String, String> headers, Instant startedAt) {
    fetcher
        .fetch(call(pending, false, headers))
        .thenAccept(attempt -> tasks.submit(() -> fetched(host, pending, startedAt, attempt)));
  }

  /** The HTTP request for a pending fetch request, with the metadata filters its options set. */
  private static PageFetcher.Call call(
      Pending pending, boolean isHead, Map<String, String> headers) {
    FetchOptions options = pending.options();
    return new PageFetcher.Call(
        pending.url(),
        isHead,
        headers,
        options.maxRedirects(),
        options.hasMetadataFilters() ? options : null,
        SiteAccess.of(pending.request().getOptions()));
  }

  /**
   * When a request that ended by the clock's {@code now} counts as ended for the delay: the clock
   * counts whole milliseconds, so the end is taken as the next one, and the delay after it is never
   * cut short by the fraction of a millisecond that {@code now} dropped.
   */
  private static long endedAt(long now) {
    return now + 1;
  }

  private void fetched(
      HostQueue<Pending> host, Pending pending, Instant startedAt, FetchAttempt attempt) {
    inFlight--;
    long now = clock.millis();
    Feedback feedback = Feedback.of(attempt, Instant.ofEpochMilli(now));
    if (feedback.kind() == Feedback.Kind.RATE_LIMITED) {
      metrics.rateLimited();
    }
    onChange(host, host.politeness().ended(endedAt(now), feedback), describe(attempt));
    host.politenessChanged(true);
    origins.reschedule(host);
    if (attempt instanceof FetchAttempt.Response response) {
      metrics.fetched(response.durationMillis(), response.body().length);
    } else {
      metrics.failed(attempt.durationMillis());
    }
    try {
      write(pending, startedAt, attempt);
    } catch (RuntimeException e) {
      LOG.error("cannot handle the response of {}", pending.url(), e);
      end(pending, Decision.of(pending.url(), Outcome.ERROR, e.toString()), null);
    } finally {
      offsets.released(pending.partition());
    }
  }

  /** Writes what the attempt gave: the page for the parser, or the URL's outcome. */
  private void write(Pending pending, Instant startedAt, FetchAttempt attempt) {
    FetchVerdict verdict = FetchVerdict.of(pending.url(), attempt);
    if (verdict.isFetched()) {
      FetchAttempt.Response response = (FetchAttempt.Response) attempt;
      writer.send(
          pending.partition(),
          pending.offset(),
          List.of(records.result(pending, response, startedAt)),
          true);
      return;
    }
    Decision decision =
        Decision.of(pending.url(), verdict.outcome().orElseThrow(), verdict.detail().orElse(null))
            .withDuration(attempt.durationMillis());
    if (attempt instanceof FetchAttempt.Response response) {
      decision = decision.withStatus(response.status());
    }
    end(
        pending,
        decision,
        verdict.redirectTarget().orElse(null),
        records.archived(
            pending.origin(),
            pending.url(),
            pending.request().getRequestId(),
            ExchangePurpose.PAGE,
            attempt));
  }

  /** Logs what a request's end changed about its origin. */
  private void onChange(HostQueue<Pending> host, OriginPoliteness.Change change, String what) {
    OriginPoliteness politeness = host.politeness();
    switch (change) {
      case PAUSED -> {
        metrics.paused();
        origins.paused(host);
        LOG.warn(
            "{}: patience ran out ({}); paused until {}, its URLs stay queued in the frontier",
            host.origin(),
            what,
            Instant.ofEpochMilli(politeness.pausedUntil()));
      }
      case BACKED_OFF -> {
        metrics.backedOff();
        LOG.info(
            "{}: {}; delay now {} ms, patience {}",
            host.origin(),
            what,
            politeness.delay().millis(),
            politeness.patience());
      }
      case NONE -> {}
    }
  }

  /**
   * Answers every waiting request of the origin {@code DEFERRED}: the frontier queues them again
   * and holds the origin until {@code until}.
   */
  private void deferWaiting(HostQueue<Pending> host, long until, String reason) {
    String detail = reason + "; not before " + Instant.ofEpochMilli(until);
    for (Pending pending : host.drain()) {
      origins.released();
      if (offsets.isOwned(pending.partition())) {
        end(
            pending,
            Decision.of(pending.url(), Outcome.DEFERRED, detail),
            null,
            host,
            until,
            Optional.empty());
      }
    }
  }

  /**
   * Ends a request with a decision; when its origin will not be fetched for a while, the frontier
   * is told when to come back.
   */
  void end(Pending pending, Decision decision, @Nullable String redirectTarget) {
    end(pending, decision, redirectTarget, Optional.empty());
  }

  /** {@link #end(Pending, Decision, String)}, with the exchanges of the request for the archive. */
  private void end(
      Pending pending,
      Decision decision,
      @Nullable String redirectTarget,
      Optional<ProducerRecord<byte[], byte[]>> archived) {
    HostQueue<Pending> host = origins.get(pending.origin());
    long retryAt = host == null ? 0 : host.comesBackAt(clock.millis(), maxHoldMillis);
    end(pending, decision, redirectTarget, host, retryAt, archived);
  }

  /**
   * Writes a decision that ends a request (and a redirect's target), and marks the request done
   * once written.
   */
  private void end(
      Pending pending,
      Decision decision,
      @Nullable String redirectTarget,
      @Nullable HostQueue<Pending> host,
      long retryAt,
      Optional<ProducerRecord<byte[], byte[]>> archived) {
    long originDelay = host == null ? -1 : host.politeness().delay().millis();
    Decision withRequest =
        decision.withRequest(
            pending.request().getRequestId(),
            pending.request().getDepth(),
            pending.request().getAttempt());
    List<ProducerRecord<byte[], byte[]>> records =
        new ArrayList<>(
            this.records.ending(pending, withRequest, redirectTarget, retryAt, originDelay));
    archived.ifPresent(records::add);
    writer.send(pending.partition(), pending.offset(), records, false);
  }

  private static String describe(FetchAttempt attempt) {
    return attempt instanceof FetchAttempt.Response response
        ? "status " + response.status()
        : ((FetchAttempt.Failure) attempt).detail();
  }
}
