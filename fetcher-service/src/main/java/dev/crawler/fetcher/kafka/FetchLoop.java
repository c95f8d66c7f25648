package dev.crawler.fetcher.kafka;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.PolitenessState;
import dev.crawler.events.RobotsVerdict;
import dev.crawler.events.UrlKind;
import dev.crawler.fetcher.domain.Feedback;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.FetchVerdict;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OffsetTracker;
import dev.crawler.fetcher.domain.OriginPoliteness;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher's one loop thread: reads fetch requests, keeps them in per-origin {@link HostQueue}s,
 * starts each origin's next request when its {@link OriginPoliteness} allows, and writes what each
 * request gave. HTTP is asynchronous: completions come back to this thread through a task queue, so
 * no origin waits for another and the thread never blocks on HTTP. A partition's offsets are
 * committed only up to the first request whose results Kafka has not yet acknowledged.
 *
 * <p>Politeness survives rebalancing: before a partition is handed over, the requests of its
 * origins that are running are finished and their results written, each origin's politeness state
 * (next request time, back-off, patience, pause) is written to the compacted politeness topic, and
 * the offsets are committed; the partition's next owner reads that state before it starts any
 * request.
 *
 * <p>An origin that cannot be fetched for a long while (paused after its patience ran out,
 * robots.txt unreadable, a long Retry-After) does not keep its requests here: they are answered
 * {@code DEFERRED} with the time to come back, and the frontier keeps the URLs queued until then.
 */
public final class FetchLoop implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(FetchLoop.class);

  /** The service named in its crawl-log entries and outcomes. */
  public static final String SERVICE = "fetcher";

  /** The longest the loop waits in a poll, so that due origins start on time. */
  static final Duration MAX_POLL = Duration.ofMillis(100);

  /** How long closing waits for requests in flight. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(30);

  /**
   * How long one commit may wait for Kafka (a broker away must not hold a stop past its grace
   * period).
   */
  static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);

  /** How often the loop looks again while Kafka acknowledges nothing. */
  static final long UNACKNOWLEDGED_RECHECK_MILLIS = 100;

  /**
   * Results waiting this long without any acknowledgement mean Kafka is not taking them (a healthy
   * broker answers in milliseconds).
   */
  static final long ACKNOWLEDGEMENT_STALL_MILLIS = 2_000;

  /**
   * Politeness state worth writing periodically: a next request further away than this (a crash
   * takes longer to notice).
   */
  static final long SIGNIFICANT_WAIT_MILLIS = 10_000;

  /**
   * Settings of the loop.
   *
   * @param defaults the options of a request that sets none
   * @param maxInFlight requests in flight at most, over all origins
   * @param maxHeld requests held in memory at most before reading stops
   * @param commitInterval how often offsets are committed and politeness state written
   * @param maxHold the longest a request waits here for its origin; beyond, it is deferred to the
   *     frontier
   * @param backoffQuiet how long without rate limits or failures before an origin's back-off is
   *     halved
   * @param handoverTimeout how long a revoked partition's running requests may take to finish
   * @param instanceId names this fetcher in the politeness state it writes
   */
  public record Settings(
      FetchOptions defaults,
      int maxInFlight,
      int maxHeld,
      Duration commitInterval,
      Duration maxHold,
      Duration backoffQuiet,
      Duration handoverTimeout,
      String instanceId) {}

  /**
   * The records written for one request (its result, or its outcome), kept to write again when a
   * write fails for a reason that passes.
   */
  private record Write(
      TopicPartition partition,
      long offset,
      List<ProducerRecord<byte[], byte[]>> records,
      boolean hasFallback) {}

  /** A request held here; {@code heldSince} is when it was read (the loop's clock). */
  private record Pending(
      TopicPartition partition,
      long offset,
      String origin,
      FetchRequest request,
      FetchOptions options,
      long heldSince) {}

  private final Consumer<byte[], byte[]> consumer;
  private final Consumer<byte[], byte[]> stateReader;
  private final Producer<byte[], byte[]> producer;
  private final Topics topics;
  private final PageFetcher fetcher;
  private final RobotsPolicy robots;
  private final Settings settings;
  private final LongSupplier clock;
  private final CrawlLog log;
  private final RecordDecoder<String, FetchRequest> decoder;
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private final Map<String, HostQueue<Pending>> hosts = new HashMap<>();

  /** The partition each known origin's requests come from. */
  private final Map<String, TopicPartition> partitionOf = new HashMap<>();

  private final Set<HostQueue<Pending>> ready = new LinkedHashSet<>();
  private final Set<String> ignoringRobots = new HashSet<>();
  private final Set<String> pausedOrigins = new HashSet<>();

  /** Origins whose politeness changed since it was last written. */
  private final Set<String> dirty = new HashSet<>();

  /**
   * Origins whose politeness state is in the topic (so a tombstone is due when it is back to
   * default).
   */
  private final Set<String> written = new HashSet<>();

  /** Politeness state read from the topic for origins of assigned partitions not yet seen here. */
  private final Map<String, OriginPoliteness.Snapshot> handedOver = new HashMap<>();

  private final Map<TopicPartition, OffsetTracker> trackers = new HashMap<>();

  /** Per partition: requests running over HTTP plus record batches not yet acknowledged. */
  private final Map<TopicPartition, Integer> outstanding = new HashMap<>();

  private final FetcherMetrics metrics = new FetcherMetrics(CrawlMetrics.registry());
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicBoolean stopped = new AtomicBoolean();
  private volatile boolean isHandingOver;

  /** Requests waiting in host queues: what this fetcher holds in memory beyond those in flight. */
  private int held;

  private int inFlight;
  private int unacknowledged;
  private boolean isPaused;

  /** Whether results were written lately ({@link #canWriteResults()}). */
  private boolean canWrite = true;

  /**
   * Since when results have waited for Kafka without an acknowledgement (the loop's clock); reset
   * by each one.
   */
  private long waitingForAcknowledgementSince;

  /**
   * When a write last failed for a reason that passes (a broker away), and when one last succeeded
   * (the loop's clock).
   */
  private long lastWriteFailedAt = Long.MIN_VALUE;

  private long lastWriteSucceededAt = Long.MIN_VALUE;

  /** Results whose write failed for a reason that passes: written again once Kafka takes writes. */
  private final ArrayDeque<Write> unwritten = new ArrayDeque<>();

  private long lastCommit;

  /**
   * @param consumer reads fetch requests in the fetchers' group
   * @param stateReader reads the politeness topic's partitions on assignment (no group, assigned by
   *     hand)
   */
  public FetchLoop(
      Consumer<byte[], byte[]> consumer,
      Consumer<byte[], byte[]> stateReader,
      Producer<byte[], byte[]> producer,
      Topics topics,
      PageFetcher fetcher,
      RobotsPolicy robots,
      Settings settings,
      LongSupplier clock,
      CrawlLog log) {
    this.log = log;
    this.consumer = consumer;
    this.stateReader = stateReader;
    this.producer = producer;
    this.topics = topics;
    this.fetcher = fetcher;
    this.robots = robots;
    this.settings = settings;
    this.clock = clock;
    this.decoder = new RecordDecoder<>(topics.fetchRequests());
    this.lastCommit = clock.getAsLong();
  }

  @Override
  public void run() {
    consumer.subscribe(List.of(topics.fetchRequests().name()), new Rebalance());
    try {
      while (running.get()) {
        iterate();
      }
      drain();
    } catch (RuntimeException e) {
      LOG.error("the fetch loop failed", e);
    } finally {
      try {
        // a stopped fetcher leaves its group, named or not: its partitions move now, not after the
        // session timeout
        consumer.close(
            CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(COMMIT_TIMEOUT));
      } finally {
        stateReader.close(CloseOptions.timeout(COMMIT_TIMEOUT));
        producer.close(COMMIT_TIMEOUT);
        fetcher.close();
        stopped.set(true);
        synchronized (stopped) {
          stopped.notifyAll();
        }
      }
    }
  }

  /**
   * Asks the loop to stop: it finishes the requests in flight (up to {@link #CLOSE_GRACE}), commits
   * and closes.
   */
  public void stop() {
    running.set(false);
    consumer.wakeup();
  }

  /** Waits until the loop has stopped. */
  public void awaitStopped(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (stopped) {
      while (!stopped.get() && System.nanoTime() < deadline) {
        TimeUnit.NANOSECONDS.timedWait(stopped, Math.max(1, deadline - System.nanoTime()));
      }
    }
  }

  public boolean isRunning() {
    return !stopped.get();
  }

  private void iterate() {
    runTasks();
    writeUnwritten();
    long now = clock.getAsLong();
    long untilNext = startReady(now);
    if (now - lastCommit >= settings.commitInterval().toMillis()) {
      commit(false);
      writePoliteness(now, new ArrayList<>(dirty), false);
      forgetIdleHosts(now);
      lastCommit = now;
    }
    applyBackpressure();
    metrics.load(inFlight, held, hosts.size(), pausedOrigins.size());
    long timeout = Math.max(0, Math.min(untilNext, MAX_POLL.toMillis()));
    try {
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(timeout))) {
        accept(record);
      }
    } catch (WakeupException e) {
      // a completion or stop() woke the loop
    }
  }

  private void accept(ConsumerRecord<byte[], byte[]> raw) {
    TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
    OffsetTracker tracker = trackers.computeIfAbsent(partition, p -> new OffsetTracker());
    if (!tracker.received(raw.offset())) {
      return; // the partition's previous owner did it: its result is written
    }
    FetchRequest request;
    try {
      request = decoder.decode(raw).value();
    } catch (UndecodableRecordException e) {
      LOG.warn("dead letter: {}", e.getMessage());
      String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
      send(
          partition,
          raw.offset(),
          List.of(
              record(topics.deadLetters(), key, DeadLetters.of(raw, e, SERVICE, Instant.now()))),
          false);
      return;
    }
    if (request == null) {
      tracker.done(raw.offset());
      return;
    }
    FetchOptions options = settings.defaults().with(request.getOptions());
    String origin;
    try {
      origin = Origin.keyOf(request.getUrl());
    } catch (RuntimeException e) {
      finish(
          new Pending(partition, raw.offset(), "", request, options, clock.getAsLong()),
          Decision.of(request.getUrl(), Outcome.ERROR, "not a fetchable URL: " + e.getMessage()),
          null);
      return;
    }
    HostQueue<Pending> host = host(origin, partition);
    host.add(new Pending(partition, raw.offset(), origin, request, options, clock.getAsLong()));
    held++;
    ready.add(host);
  }

  private HostQueue<Pending> host(String origin, TopicPartition partition) {
    partitionOf.put(origin, partition);
    HostQueue<Pending> host = hosts.get(origin);
    if (host == null) {
      host =
          new HostQueue<>(
              origin,
              new OriginPoliteness(settings.defaults(), settings.backoffQuiet().toMillis()));
      OriginPoliteness.Snapshot previous = handedOver.remove(origin);
      if (previous != null) {
        host.politeness().restore(previous);
        LOG.debug("{}: going on from the previous owner's politeness {}", origin, previous);
      }
      hosts.put(origin, host);
    }
    return host;
  }

  /** Starts what may start; returns the milliseconds until the next origin's delay is over. */
  private long startReady(long now) {
    if (!canWriteResults()) {
      return UNACKNOWLEDGED_RECHECK_MILLIS; // back-pressure: no request starts whose result could
      // not be written
    }
    long untilNext = Long.MAX_VALUE;
    for (Iterator<HostQueue<Pending>> it = ready.iterator();
        it.hasNext() && inFlight < settings.maxInFlight(); ) {
      HostQueue<Pending> host = it.next();
      OriginPoliteness politeness = host.politeness();
      if (host.hasWaiting() && politeness.isPaused(now)) {
        deferWaiting(host, politeness.pausedUntil(), "origin paused (patience ran out)");
      } else if (host.hasWaiting()
          && !host.isFetchingRobots()
          && host.nextStartAt() - now > settings.maxHold().toMillis()) {
        deferWaiting(
            host,
            host.nextStartAt(),
            "origin's next request not due within " + settings.maxHold().toSeconds() + " s");
      }
      while (host.hasWaiting() && host.isReady(now) && inFlight < settings.maxInFlight()) {
        startNext(host, now);
      }
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
    // the options of the request about to go apply to the origin from now on, robots.txt's request
    // included
    host.politeness().options(pending.options());
    boolean obeysRobots = pending.options().obeysRobots();
    if (obeysRobots && host.needsRobots(now)) {
      fetchRobots(host); // the request waits in the queue for the rules
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
    held--;
    if (!trackers.containsKey(pending.partition())) {
      return; // revoked meanwhile: the partition's new owner fetches it
    }
    if (obeysRobots
        && rules != null
        && !RobotsPolicy.isAllowedByRobots(rules, pending.request().getUrl())) {
      // no request is made, so the origin's delay is not spent: the next waiting request may go at
      // once
      finish(
          pending,
          requestFacts(
              Decision.of(pending.request().getUrl(), Outcome.BLOCKED_BY_ROBOTS_TXT, "robots.txt"),
              pending),
          null);
      return;
    }
    if (!obeysRobots && ignoringRobots.add(host.origin())) {
      LOG.warn(
          "robots.txt of {} is NOT obeyed: the crawl configuration sets obey-robots-txt: false for its URLs",
          host.origin());
    }
    if (pausedOrigins.remove(host.origin())) {
      LOG.info("{}: pause over, crawling it again", host.origin());
    }
    metrics.waited(now - pending.heldSince());
    fetch(host, pending);
  }

  private void fetchRobots(HostQueue<Pending> host) {
    String url = RobotsPolicy.robotsUrl(host.origin());
    host.fetchingRobots(true);
    host.politeness().started();
    inFlight++;
    fetcher
        .get(url, Map.of(), RobotsPolicy.MAX_REDIRECTS)
        .thenAccept(attempt -> submit(() -> robotsFetched(host, url, attempt)));
  }

  private void robotsFetched(HostQueue<Pending> host, String url, FetchAttempt attempt) {
    inFlight--;
    long now = clock.getAsLong();
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
    sendSitemaps(host.origin(), url, RobotsPolicy.sitemaps(rules));
    dirty.add(host.origin());
    reschedule(host);
  }

  /** Sends the sitemaps robots.txt names to the frontier as discovered URLs of kind sitemap. */
  private void sendSitemaps(String origin, String robotsUrl, List<String> sitemaps) {
    Instant now = Instant.now();
    for (String sitemap : sitemaps) {
      String key;
      try {
        key = Origin.keyOf(sitemap);
      } catch (RuntimeException e) {
        LOG.debug("{} names a sitemap that is not a URL: {}", robotsUrl, sitemap);
        continue;
      }
      DiscoveredUrl discovered =
          DiscoveredUrl.newBuilder()
              .setUrl(sitemap)
              .setSourceUrl(robotsUrl)
              .setDepth(0)
              .setKind(UrlKind.SITEMAP)
              .setDiscoveredAt(now)
              .build();
      sendUntracked(record(topics.discovered(), key, discovered));
    }
  }

  private void fetch(HostQueue<Pending> host, Pending pending) {
    FetchRequest request = pending.request();
    FetchOptions options = pending.options();
    host.politeness().started();
    inFlight++;
    outstanding.merge(pending.partition(), 1, Integer::sum);
    Map<String, String> headers = new HashMap<>();
    if (request.getIfNoneMatch() != null) {
      headers.put("If-None-Match", request.getIfNoneMatch());
    }
    if (request.getIfModifiedSince() != null) {
      headers.put("If-Modified-Since", request.getIfModifiedSince());
    }
    Instant startedAt = Instant.now();
    if (options.head() != FetchOptions.HeadMode.DISABLED) {
      fetcher
          .fetch(call(pending, true, Map.of()))
          .thenAccept(attempt -> submit(() -> headed(host, pending, headers, startedAt, attempt)));
      return;
    }
    get(host, pending, headers, startedAt);
  }

  private void get(
      HostQueue<Pending> host, Pending pending, Map<String, String> headers, Instant startedAt) {
    fetcher
        .fetch(call(pending, false, headers))
        .thenAccept(attempt -> submit(() -> fetched(host, pending, startedAt, attempt)));
  }

  /** The HTTP request for a pending fetch request, with the metadata filters its options set. */
  private static PageFetcher.Call call(
      Pending pending, boolean isHead, Map<String, String> headers) {
    FetchOptions options = pending.options();
    return new PageFetcher.Call(
        pending.request().getUrl(),
        isHead,
        headers,
        options.maxRedirects(),
        options.hasMetadataFilters() ? options : null);
  }

  /**
   * The HEAD request went first (seed 002): a 2xx that the metadata filters accept goes on to the
   * GET at once (HEAD and GET count as one request for politeness); rejected metadata ends the URL
   * as {@code FILTERED}; any other answer ends it when HEAD is required, and goes on to the GET
   * when it is optional (many servers answer HEAD badly).
   */
  private void headed(
      HostQueue<Pending> host,
      Pending pending,
      Map<String, String> headers,
      Instant startedAt,
      FetchAttempt head) {
    boolean isAccepted =
        head instanceof FetchAttempt.Response response
            && response.status() >= 200
            && response.status() < 300;
    boolean isRejected =
        head instanceof FetchAttempt.Failure failure
            && failure.kind() == FetchAttempt.FailureKind.REJECTED_METADATA;
    if (isAccepted || (!isRejected && pending.options().head() == FetchOptions.HeadMode.OPTIONAL)) {
      get(host, pending, headers, startedAt);
      return;
    }
    fetched(host, pending, startedAt, head);
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
    long now = clock.getAsLong();
    OriginPoliteness politeness = host.politeness();
    Feedback feedback = Feedback.of(attempt, Instant.ofEpochMilli(now));
    if (feedback.kind() == Feedback.Kind.RATE_LIMITED) {
      metrics.rateLimited();
    }
    onChange(host, politeness.ended(endedAt(now), feedback), describe(attempt));
    dirty.add(host.origin());
    reschedule(host);
    FetchRequest request = pending.request();
    if (attempt instanceof FetchAttempt.Response response) {
      metrics.fetched(response.durationMillis(), response.body().length);
    } else {
      metrics.failed(attempt.durationMillis());
    }
    try {
      FetchVerdict verdict = FetchVerdict.of(request.getUrl(), attempt);
      if (verdict.isFetched()) {
        FetchAttempt.Response response = (FetchAttempt.Response) attempt;
        send(
            pending.partition(),
            pending.offset(),
            List.of(
                record(
                    topics.fetchResults(), pending.origin(), result(pending, response, startedAt))),
            true);
        return;
      }
      Decision decision =
          requestFacts(
                  Decision.of(
                      request.getUrl(),
                      verdict.outcome().orElseThrow(),
                      verdict.detail().orElse(null)),
                  pending)
              .withDuration(attempt.durationMillis());
      if (attempt instanceof FetchAttempt.Response response) {
        decision = decision.withStatus(response.status());
      }
      finish(pending, decision, verdict.redirectTarget().orElse(null));
    } catch (RuntimeException e) {
      LOG.error("cannot handle the response of {}", request.getUrl(), e);
      finish(
          pending,
          requestFacts(Decision.of(request.getUrl(), Outcome.ERROR, e.toString()), pending),
          null);
    } finally {
      release(pending.partition());
    }
  }

  /** Logs what a request's end changed about its origin. */
  private void onChange(HostQueue<Pending> host, OriginPoliteness.Change change, String what) {
    OriginPoliteness politeness = host.politeness();
    switch (change) {
      case PAUSED -> {
        metrics.paused();
        pausedOrigins.add(host.origin());
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
      held--;
      if (trackers.containsKey(pending.partition())) {
        finish(
            pending,
            requestFacts(
                Decision.of(pending.request().getUrl(), Outcome.DEFERRED, detail), pending),
            null,
            until);
      }
    }
  }

  private void finish(Pending pending, Decision decision, @Nullable String redirectTarget) {
    long retryAt = 0;
    HostQueue<Pending> host = hosts.get(pending.origin());
    long now = clock.getAsLong();
    if (host != null
        && (host.politeness().isPaused(now)
            || host.nextStartAt() - now > settings.maxHold().toMillis())) {
      // the origin will not be fetched for a while: the frontier holds its queue until then
      retryAt = Math.max(host.politeness().nextStartAt(), host.politeness().pausedUntil());
    }
    finish(pending, decision, redirectTarget, retryAt);
  }

  /**
   * Writes a decision that ends a request (and a redirect's target), and marks the request done
   * once written.
   */
  private void finish(
      Pending pending, Decision decision, @Nullable String redirectTarget, long retryAt) {
    Instant now = Instant.now();
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(3);
    CrawlOutcome.Builder outcome = decision.toOutcome(SERVICE, now);
    if (retryAt > now.toEpochMilli()) {
      outcome.setRetryAt(Instant.ofEpochMilli(retryAt));
    }
    HostQueue<Pending> host = hosts.get(pending.origin());
    if (host != null) {
      outcome.setOriginDelayMillis(host.politeness().delay().millis());
    }
    records.add(record(topics.outcomes(), pending.origin(), outcome.build()));
    records.add(record(topics.log(), pending.origin(), log.entry(decision, now)));
    if (redirectTarget != null) {
      DiscoveredUrl target =
          DiscoveredUrl.newBuilder()
              .setUrl(redirectTarget)
              .setSourceUrl(pending.request().getUrl())
              .setDepth(pending.request().getDepth())
              .setKind(UrlKind.REDIRECT)
              .setDiscoveredAt(now)
              .build();
      records.add(record(topics.discovered(), Origin.keyOf(redirectTarget), target));
    }
    send(pending.partition(), pending.offset(), records, false);
  }

  private static Decision requestFacts(Decision decision, Pending pending) {
    return decision.withRequest(
        pending.request().getRequestId(),
        pending.request().getDepth(),
        pending.request().getAttempt());
  }

  private FetchResult result(Pending pending, FetchAttempt.Response response, Instant startedAt) {
    FetchRequest request = pending.request();
    boolean wasRedirected = !response.redirectChain().isEmpty();
    return FetchResult.newBuilder()
        .setUrl(request.getUrl())
        .setRequestId(request.getRequestId())
        .setDepth(request.getDepth())
        .setAttempt(request.getAttempt())
        .setStatus(response.status())
        .setHeaders(response.headers())
        .setBody(ByteBuffer.wrap(response.body()))
        .setContentType(response.contentType().orElse(null))
        .setCharset(response.charset().orElse(null))
        .setFetchedAt(startedAt)
        .setDurationMillis(response.durationMillis())
        .setRedirectChain(response.redirectChain())
        .setFinalUrl(wasRedirected ? response.url() : null)
        .setRobotsVerdict(
            pending.options().obeysRobots() ? RobotsVerdict.ALLOWED : RobotsVerdict.IGNORED)
        .setKind(request.getKind())
        .setOptions(request.getOptions())
        .build();
  }

  /**
   * Sends the records of one request; when Kafka has acknowledged them all, the request's offset is
   * done. If the main record cannot be written, an ERROR outcome is written in its place so the
   * frontier does not wait for it.
   */
  private void send(
      TopicPartition partition,
      long offset,
      List<ProducerRecord<byte[], byte[]>> records,
      boolean hasFallback) {
    if (isAcknowledgementStalled()) {
      // Kafka takes nothing (the broker away), and a send would block the loop: written when it
      // does
      unwritten.add(new Write(partition, offset, records, hasFallback));
      return;
    }
    AtomicInteger remaining = new AtomicInteger(records.size());
    AtomicReference<Exception> firstError = new AtomicReference<>();
    if (unacknowledged++ == 0) {
      waitingForAcknowledgementSince = clock.getAsLong();
    }
    outstanding.merge(partition, 1, Integer::sum);
    for (ProducerRecord<byte[], byte[]> record : records) {
      producer.send(
          record,
          (metadata, error) -> {
            if (error != null
                && firstError.compareAndSet(null, error)
                && !(error instanceof RetriableException)) {
              LOG.error("cannot write to {}: {}", record.topic(), error.toString());
            }
            if (remaining.decrementAndGet() == 0) {
              submit(
                  () ->
                      acknowledged(
                          new Write(partition, offset, records, hasFallback), firstError.get()));
            }
          });
    }
  }

  /**
   * Writes again the results whose write failed for a reason that passes, once Kafka takes writes.
   */
  private void writeUnwritten() {
    while (!unwritten.isEmpty() && !isAcknowledgementStalled()) {
      Write next = unwritten.poll();
      send(next.partition(), next.offset(), next.records(), next.hasFallback());
    }
  }

  /** Sends a record that no request's offset waits for (sitemaps, politeness state). */
  private void sendUntracked(ProducerRecord<byte[], byte[]> record) {
    producer.send(
        record,
        (metadata, error) -> {
          if (error != null) {
            LOG.warn("cannot write to {}: {}", record.topic(), error.toString());
          }
        });
  }

  /**
   * Kafka answered the writes of one request. Written: its offset is done. Failed for a reason that
   * passes (a timeout, the broker away): written again later, the offset not done meanwhile. Failed
   * for good (a record too large): an ERROR outcome is written in the result's place.
   */
  private void acknowledged(Write sent, @Nullable Exception error) {
    TopicPartition partition = sent.partition();
    long offset = sent.offset();
    unacknowledged--;
    release(partition);
    long now = clock.getAsLong();
    if (error instanceof RetriableException) {
      lastWriteFailedAt = now;
      unwritten.add(sent);
      return;
    }
    waitingForAcknowledgementSince = now;
    lastWriteSucceededAt = now;
    ProducerRecord<byte[], byte[]> failedResult =
        error != null && sent.hasFallback() ? sent.records().get(0) : null;
    if (failedResult != null) {
      FetchResult result =
          topics
              .fetchResults()
              .valueSerde()
              .deserializer()
              .deserialize(failedResult.topic(), failedResult.value());
      if (result != null) {
        Decision decision =
            Decision.of(result.getUrl(), Outcome.ERROR, "cannot write the fetch result: " + error)
                .withRequest(result.getRequestId(), result.getDepth(), result.getAttempt());
        String origin = new String(failedResult.key(), StandardCharsets.UTF_8);
        Instant at = Instant.ofEpochMilli(now);
        send(
            partition,
            offset,
            List.of(
                record(topics.outcomes(), origin, decision.toOutcome(SERVICE, at).build()),
                record(topics.log(), origin, log.entry(decision, at))),
            false);
        return;
      }
    }
    OffsetTracker tracker = trackers.get(partition);
    if (tracker != null) {
      tracker.done(offset);
    }
  }

  private void release(TopicPartition partition) {
    outstanding.computeIfPresent(partition, (p, count) -> count > 1 ? count - 1 : null);
  }

  private <V> ProducerRecord<byte[], byte[]> record(
      TopicSpec<String, V> topic, @Nullable String key, @Nullable V value) {
    byte[] keyBytes =
        key == null ? null : topic.keySerde().serializer().serialize(topic.name(), key);
    byte[] valueBytes =
        value == null ? null : topic.valueSerde().serializer().serialize(topic.name(), value);
    return new ProducerRecord<>(topic.name(), keyBytes, valueBytes);
  }

  private void reschedule(HostQueue<Pending> host) {
    if (host.hasWaiting()) {
      ready.add(host);
    }
  }

  private void submit(Runnable task) {
    tasks.add(task);
    if (!isHandingOver) {
      consumer.wakeup(); // during a hand-over the loop is in the rebalance callback and takes tasks
      // itself
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  /**
   * Writes the politeness state of these origins: whatever it is ({@code all}, before a hand-over)
   * or only whose state outlives a crash's detection (a pause, a back-off, lowered patience, a next
   * request far away). An origin back to a fresh state gets a tombstone.
   */
  private void writePoliteness(long now, Collection<String> origins, boolean all) {
    for (String origin : origins) {
      HostQueue<Pending> host = hosts.get(origin);
      TopicPartition partition = partitionOf.get(origin);
      if (host == null || partition == null || !trackers.containsKey(partition)) {
        dirty.remove(origin);
        continue;
      }
      OriginPoliteness politeness = host.politeness();
      if (politeness.isDefault(now)) {
        if (written.remove(origin)) {
          sendUntracked(record(topics.politeness(), origin, null));
        }
        dirty.remove(origin);
        continue;
      }
      OriginPoliteness.Snapshot snapshot = politeness.snapshot(now);
      boolean isSignificant =
          politeness.isPaused(now)
              || snapshot.backoffMillis() > 0
              || snapshot.patience() < politeness.options().patience()
              || snapshot.nextStartAt() - now > SIGNIFICANT_WAIT_MILLIS;
      if (all || isSignificant) {
        sendUntracked(record(topics.politeness(), origin, state(origin, snapshot, now)));
        written.add(origin);
        dirty.remove(origin);
      }
    }
  }

  private PolitenessState state(String origin, OriginPoliteness.Snapshot snapshot, long now) {
    return PolitenessState.newBuilder()
        .setOrigin(origin)
        .setNextRequestAt(Instant.ofEpochMilli(Math.max(0, snapshot.nextStartAt())))
        .setBackoffMillis(snapshot.backoffMillis())
        .setBackoffChangedAt(Instant.ofEpochMilli(snapshot.backoffChangedAt()))
        .setPatience(snapshot.patience())
        .setFailureStreak(snapshot.failureStreak())
        .setPausedUntil(Instant.ofEpochMilli(snapshot.pausedUntil()))
        .setUpdatedAt(Instant.ofEpochMilli(now))
        .setFetcher(settings.instanceId())
        .build();
  }

  private static OriginPoliteness.Snapshot snapshot(PolitenessState state) {
    return new OriginPoliteness.Snapshot(
        state.getNextRequestAt().toEpochMilli(),
        state.getBackoffMillis(),
        state.getBackoffChangedAt().toEpochMilli(),
        state.getPatience(),
        state.getFailureStreak(),
        state.getPausedUntil().toEpochMilli());
  }

  /** What to commit for these partitions, each tracker told the consumer's position first. */
  private Map<TopicPartition, OffsetTracker.Commit> commitsOf(
      Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetTracker.Commit> commits = new HashMap<>();
    for (TopicPartition partition : partitions) {
      OffsetTracker tracker = trackers.get(partition);
      if (tracker != null) {
        readPosition(partition, tracker);
        tracker.commit().ifPresent(commit -> commits.put(partition, commit));
      }
    }
    return commits;
  }

  private void commit(boolean sync) {
    Map<TopicPartition, OffsetTracker.Commit> commits =
        commitsOf(new ArrayList<>(trackers.keySet()));
    if (commits.isEmpty()) {
      return;
    }
    if (sync) {
      commitSync(commits);
    } else {
      try {
        consumer.commitAsync(
            offsets(commits),
            (committed, error) -> {
              if (error != null) {
                LOG.warn(
                    "committing offsets failed (they are committed again later): {}",
                    error.toString());
              } else {
                acknowledge(commits);
              }
            });
      } catch (WakeupException e) {
        consumer.wakeup(); // looking for the coordinator took the wake-up meant for the next poll;
        // committed again later
      } catch (KafkaException e) {
        LOG.warn("committing offsets failed (they are committed again later): {}", e.toString());
      }
    }
  }

  /**
   * Tells the tracker the consumer's position in the partition, when the consumer knows it without
   * asking the broker.
   */
  private void readPosition(TopicPartition partition, OffsetTracker tracker) {
    if (!consumer.assignment().contains(partition)) {
      return;
    }
    try {
      tracker.readUpTo(consumer.position(partition, Duration.ZERO));
    } catch (org.apache.kafka.common.errors.TimeoutException | IllegalStateException e) {
      // no position yet (just assigned): the next commit reads it
    } catch (WakeupException e) {
      consumer.wakeup(); // the wake-up was meant for the next poll (a completion, or stop())
    }
  }

  /**
   * Commits and waits; a commit Kafka refuses (a rebalance under way, a broker away) is made again
   * later.
   */
  private void commitSync(Map<TopicPartition, OffsetTracker.Commit> commits) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        consumer.commitSync(offsets(commits), COMMIT_TIMEOUT);
        acknowledge(commits);
        return;
      } catch (WakeupException e) {
        // a completion woke the consumer: commit again
      } catch (KafkaException e) {
        LOG.warn(
            "committing offsets {} failed (they are committed again later): {}",
            offsets(commits),
            e.toString());
        return;
      }
    }
    LOG.warn("offsets {} not committed: the consumer kept being woken", offsets(commits));
  }

  /** Kafka acknowledged these commits: their trackers ask for no commit until something changes. */
  private void acknowledge(Map<TopicPartition, OffsetTracker.Commit> commits) {
    commits.forEach(
        (partition, commit) -> {
          OffsetTracker tracker = trackers.get(partition);
          if (tracker != null) {
            tracker.committed(commit);
          }
        });
  }

  private static Map<TopicPartition, OffsetAndMetadata> offsets(
      Map<TopicPartition, OffsetTracker.Commit> commits) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    commits.forEach(
        (partition, commit) ->
            offsets.put(partition, new OffsetAndMetadata(commit.offset(), commit.metadata())));
    return offsets;
  }

  /**
   * Forgets origins with nothing waiting or running whose delay and pause are over and whose
   * robots.txt expired, so memory follows the active origins.
   */
  private void forgetIdleHosts(long now) {
    for (Iterator<HostQueue<Pending>> it = hosts.values().iterator(); it.hasNext(); ) {
      HostQueue<Pending> host = it.next();
      OriginPoliteness politeness = host.politeness();
      if (!host.hasWaiting()
          && !politeness.isBusy()
          && !host.isFetchingRobots()
          && now >= host.nextStartAt()
          && !politeness.isPaused(now)
          && host.needsRobots(now)) {
        it.remove();
        partitionOf.remove(host.origin());
        dirty.remove(host.origin());
        ignoringRobots.remove(host.origin());
        if (written.remove(host.origin())) {
          sendUntracked(record(topics.politeness(), host.origin(), null));
        }
      }
    }
    handedOver
        .values()
        .removeIf(
            snapshot ->
                snapshot.nextStartAt() < now
                    && snapshot.pausedUntil() < now
                    && snapshot.backoffChangedAt() < now - settings.backoffQuiet().toMillis() * 8);
  }

  /**
   * Whether results can be written: Kafka acknowledged one within {@value
   * #ACKNOWLEDGEMENT_STALL_MILLIS} ms while some wait, and fewer than twice {@code maxInFlight}
   * wait. When Kafka stops acknowledging (the broker away), no new request starts, so the fetcher
   * does not fetch pages whose results it cannot write; the requests it holds wait, and start again
   * when Kafka takes the results.
   */
  private boolean canWriteResults() {
    boolean can = !isAcknowledgementStalled() && unacknowledged < 2 * settings.maxInFlight();
    if (can != canWrite) {
      canWrite = can;
      if (can) {
        LOG.info("Kafka acknowledges the results again: requests start again");
      } else {
        LOG.warn(
            "{} results wait for Kafka's acknowledgement: no request starts until Kafka takes them",
            unacknowledged);
      }
    }
    return can;
  }

  /**
   * Whether Kafka takes no writes now: results have waited {@value #ACKNOWLEDGEMENT_STALL_MILLIS}
   * ms without any acknowledgement, or the last write failed for a reason that passes and nothing
   * was written since (tried again {@value #ACKNOWLEDGEMENT_STALL_MILLIS} ms later).
   */
  private boolean isAcknowledgementStalled() {
    long now = clock.getAsLong();
    boolean isWaiting =
        unacknowledged > 0 && now - waitingForAcknowledgementSince > ACKNOWLEDGEMENT_STALL_MILLIS;
    boolean hasFailed =
        lastWriteFailedAt > lastWriteSucceededAt
            && now - lastWriteFailedAt < ACKNOWLEDGEMENT_STALL_MILLIS;
    return isWaiting || hasFailed;
  }

  private void applyBackpressure() {
    boolean isFull = held >= settings.maxHeld() || !canWrite;
    if (!isPaused && isFull) {
      consumer.pause(consumer.assignment());
      isPaused = true;
    } else if (isPaused && held < settings.maxHeld() / 2 && canWrite) {
      consumer.resume(consumer.paused());
      isPaused = false;
    }
  }

  /** After stop(): finish the requests in flight, write their results, commit. */
  private void drain() {
    long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
    // results Kafka stopped acknowledging (the broker away) are not waited for: their offsets stay
    // uncommitted, and the partition's next owner fetches those requests again
    while ((inFlight > 0
            || ((unacknowledged > 0 || !unwritten.isEmpty()) && !isAcknowledgementStalled()))
        && System.nanoTime() < deadline) {
      writeUnwritten();
      try {
        Runnable task = tasks.poll(100, TimeUnit.MILLISECONDS);
        if (task != null) {
          task.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      // no flush: with the broker away it would wait for the delivery timeout (2 minutes), past any
      // grace period;
      // the producer sends what it holds within its linger, and the acknowledgements come as tasks
    }
    runTasks();
    commit(true);
  }

  private static String describe(FetchAttempt attempt) {
    return attempt instanceof FetchAttempt.Response response
        ? "status " + response.status()
        : ((FetchAttempt.Failure) attempt).detail();
  }

  /**
   * Hands partitions over politely (finish, write state, commit) before they go; reads their state
   * when they come.
   */
  private final class Rebalance implements ConsumerRebalanceListener {

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      isHandingOver = true;
      try {
        finishRunning(partitions);
        long now = clock.getAsLong();
        Set<String> leaving = new HashSet<>();
        partitionOf.forEach(
            (origin, partition) -> {
              if (partitions.contains(partition)) {
                leaving.add(origin);
              }
            });
        writePoliteness(now, leaving, true);
        if (!isAcknowledgementStalled()) {
          producer.flush(); // with the broker away, a flush would wait for the delivery timeout (2
          // minutes)
        }
        // the acknowledgements the flush brought mark their requests done before the last commit
        runTasks();
        Map<TopicPartition, OffsetTracker.Commit> commits = commitsOf(partitions);
        if (!commits.isEmpty()) {
          commitSync(commits);
        }
        LOG.info("handed over {} ({} origins)", partitions, leaving.size());
      } finally {
        isHandingOver = false;
      }
      forget(partitions);
    }

    /**
     * Waits (up to the hand-over timeout) for the partitions' running requests and their records.
     */
    private void finishRunning(Collection<TopicPartition> partitions) {
      long deadline = System.nanoTime() + settings.handoverTimeout().toNanos();
      // with Kafka taking no writes (the broker away), what is still outstanding cannot be written:
      // no waiting for it
      while (partitions.stream().anyMatch(outstanding::containsKey)
          && !isAcknowledgementStalled()
          && System.nanoTime() < deadline) {
        try {
          Runnable task = tasks.poll(20, TimeUnit.MILLISECONDS);
          if (task != null) {
            task.run();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      runTasks();
      if (partitions.stream().anyMatch(outstanding::containsKey)) {
        LOG.warn(
            "requests of {} still running after {}: their next owner fetches them again",
            partitions,
            settings.handoverTimeout());
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      forget(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
      try {
        committed = consumer.committed(new HashSet<>(partitions), Duration.ofSeconds(10));
      } catch (RuntimeException e) {
        LOG.warn(
            "cannot read the committed offsets of {}: requests done beyond them are fetched again: {}",
            partitions,
            e.toString());
      }
      for (TopicPartition partition : partitions) {
        OffsetAndMetadata last = committed.get(partition);
        trackers.put(partition, OffsetTracker.resuming(last == null ? null : last.metadata()));
      }
      readPoliteness(partitions);
    }

    /**
     * Reads the politeness state of the origins of newly assigned partitions, before any of their
     * requests start.
     */
    private void readPoliteness(Collection<TopicPartition> partitions) {
      List<TopicPartition> stateTopic =
          partitions.stream()
              .map(p -> new TopicPartition(topics.politeness().name(), p.partition()))
              .toList();
      Map<String, OriginPoliteness.Snapshot> read = new HashMap<>();
      long deadline = System.nanoTime() + settings.handoverTimeout().toNanos();
      try {
        stateReader.assign(stateTopic);
        stateReader.seekToBeginning(stateTopic);
        Map<TopicPartition, Long> ends = stateReader.endOffsets(stateTopic);
        while (stateTopic.stream().anyMatch(p -> stateReader.position(p) < ends.get(p))
            && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> raw : stateReader.poll(Duration.ofMillis(100))) {
            String origin =
                raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
            if (origin == null) {
              continue;
            }
            try {
              PolitenessState state =
                  topics
                      .politeness()
                      .valueSerde()
                      .deserializer()
                      .deserialize(raw.topic(), raw.value());
              if (state == null) {
                read.remove(origin);
              } else {
                read.put(origin, snapshot(state));
              }
            } catch (RuntimeException e) {
              LOG.warn(
                  "politeness state of {} at {}-{}@{} cannot be read; starting it fresh: {}",
                  origin,
                  raw.topic(),
                  raw.partition(),
                  raw.offset(),
                  e.toString());
            }
          }
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "cannot read the politeness state of {}: starting their origins fresh: {}",
            partitions,
            e.toString());
      } finally {
        stateReader.assign(List.of());
      }
      long now = clock.getAsLong();
      read.values()
          .removeIf(
              snapshot ->
                  snapshot.nextStartAt() < now
                      && snapshot.pausedUntil() < now
                      && snapshot.backoffMillis() == 0
                      && snapshot.failureStreak() == 0);
      read.forEach(
          (origin, snapshot) -> {
            HostQueue<Pending> host = hosts.get(origin);
            if (host != null) {
              host.politeness().restore(snapshot);
            } else {
              handedOver.put(origin, snapshot);
            }
          });
      LOG.info("assigned {}; politeness state of {} origins taken over", partitions, read.size());
    }

    private void forget(Collection<TopicPartition> partitions) {
      partitions.forEach(trackers::remove);
      partitions.forEach(outstanding::remove);
      // results never written: their offsets were not committed, so the partition's next owner
      // fetches them again
      unwritten.removeIf(result -> partitions.contains(result.partition()));
      for (Iterator<HostQueue<Pending>> it = hosts.values().iterator(); it.hasNext(); ) {
        HostQueue<Pending> host = it.next();
        held -= host.removeIf(pending -> partitions.contains(pending.partition()));
        TopicPartition partition = partitionOf.get(host.origin());
        if (partition != null
            && partitions.contains(partition)
            && !host.isBusy()
            && !host.isFetchingRobots()) {
          it.remove(); // its next owner has its politeness now
          ready.remove(host);
          partitionOf.remove(host.origin());
          dirty.remove(host.origin());
          written.remove(host.origin());
          pausedOrigins.remove(host.origin());
          ignoringRobots.remove(host.origin());
        }
      }
    }
  }
}
