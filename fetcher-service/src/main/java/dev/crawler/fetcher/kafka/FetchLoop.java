package dev.crawler.fetcher.kafka;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.RobotsVerdict;
import dev.crawler.events.UrlKind;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchVerdict;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OffsetTracker;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher's one loop thread: reads fetch requests, keeps them in per-origin {@link HostQueue}s,
 * starts each origin's next request when its politeness allows, and writes what each request gave.
 * HTTP is asynchronous: completions come back to this thread through a task queue, so no origin waits
 * for another and the thread never blocks on HTTP. A partition's offsets are committed only up to the
 * first request whose results Kafka has not yet acknowledged.
 */
public final class FetchLoop implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(FetchLoop.class);

  static final String SERVICE = "fetcher";

  /** The request option that sets the origin's delay, in milliseconds. */
  public static final String DELAY_OPTION = "delay-ms";

  /** The request option that turns robots.txt off for the URL ({@code false}), logged loudly. */
  public static final String OBEY_ROBOTS_OPTION = "obey-robots-txt";

  /** The request option saying how redirects are handled: {@code record} or {@code follow N}. */
  public static final String REDIRECTS_OPTION = "redirects";

  /** The longest the loop waits in a poll, so that due origins start on time. */
  static final Duration MAX_POLL = Duration.ofMillis(100);

  /** How long closing waits for requests in flight. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(30);

  /** Settings of the loop. */
  public record Settings(long delayMillis, boolean obeyRobots, int maxInFlight, int maxHeld, Duration commitInterval) {}

  private record Pending(TopicPartition partition, long offset, String origin, FetchRequest request) {}

  private final Consumer<byte[], byte[]> consumer;
  private final Producer<byte[], byte[]> producer;
  private final Topics topics;
  private final PageFetcher fetcher;
  private final RobotsPolicy robots;
  private final Settings settings;
  private final RecordDecoder<String, FetchRequest> decoder;
  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private final Map<String, HostQueue<Pending>> hosts = new HashMap<>();
  private final Set<HostQueue<Pending>> ready = new LinkedHashSet<>();
  private final Set<String> ignoringRobots = new java.util.HashSet<>();
  private final Map<TopicPartition, OffsetTracker> trackers = new HashMap<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicBoolean stopped = new AtomicBoolean();
  /** Requests waiting in host queues: what this fetcher holds in memory beyond those in flight. */
  private int held;
  private int inFlight;
  private int unacknowledged;
  private boolean isPaused;
  private long lastCommit = now();

  public FetchLoop(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer, Topics topics, PageFetcher fetcher, RobotsPolicy robots, Settings settings) {
    this.consumer = consumer;
    this.producer = producer;
    this.topics = topics;
    this.fetcher = fetcher;
    this.robots = robots;
    this.settings = settings;
    this.decoder = new RecordDecoder<>(topics.fetchRequests());
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
        consumer.close();
      } finally {
        producer.close();
        fetcher.close();
        stopped.set(true);
        synchronized (stopped) {
          stopped.notifyAll();
        }
      }
    }
  }

  /** Asks the loop to stop: it finishes the requests in flight (up to {@link #CLOSE_GRACE}), commits and closes. */
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
    long now = now();
    long untilNext = startReady(now);
    if (now - lastCommit >= settings.commitInterval().toMillis()) {
      commit(false);
      forgetIdleHosts(now);
      lastCommit = now;
    }
    applyBackpressure();
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
    tracker.received(raw.offset());
    FetchRequest request;
    try {
      request = decoder.decode(raw).value();
    } catch (UndecodableRecordException e) {
      LOG.warn("dead letter: {}", e.getMessage());
      send(partition, raw.offset(), List.of(record(topics.deadLetters(), raw.key() == null ? null : new String(raw.key(), java.nio.charset.StandardCharsets.UTF_8), DeadLetters.of(raw, e, SERVICE, Instant.now()))), false);
      return;
    }
    if (request == null) {
      tracker.done(raw.offset());
      return;
    }
    String origin;
    try {
      origin = Origin.keyOf(request.getUrl());
    } catch (RuntimeException e) {
      finish(new Pending(partition, raw.offset(), "", request), Decision.of(request.getUrl(), Outcome.ERROR, "not a fetchable URL: " + e.getMessage()), null);
      return;
    }
    HostQueue<Pending> host = hosts.computeIfAbsent(origin, HostQueue::new);
    host.add(new Pending(partition, raw.offset(), origin, request));
    held++;
    if (!host.isBusy()) {
      ready.add(host);
    }
  }

  /** Starts what may start; returns the milliseconds until the next origin's delay is over. */
  private long startReady(long now) {
    long untilNext = Long.MAX_VALUE;
    for (Iterator<HostQueue<Pending>> it = ready.iterator(); it.hasNext() && inFlight < settings.maxInFlight(); ) {
      HostQueue<Pending> host = it.next();
      if (host.isBusy() || !host.hasWaiting()) {
        it.remove();
      } else if (!host.isReady(now)) {
        untilNext = Math.min(untilNext, host.nextStartAt() - now);
      } else {
        it.remove();
        startNext(host, now);
      }
    }
    return untilNext;
  }

  private void startNext(HostQueue<Pending> host, long now) {
    while (host.hasWaiting()) {
      Pending pending = host.peek().orElseThrow();
      boolean obeysRobots = obeysRobots(pending);
      if (obeysRobots && host.needsRobots(now)) {
        fetchRobots(host); // the request waits in the queue for the rules
        return;
      }
      host.poll();
      held--;
      if (!trackers.containsKey(pending.partition())) {
        continue; // revoked meanwhile: the partition's new owner fetches it
      }
      BaseRobotRules rules = host.robots().orElse(null);
      if (obeysRobots && rules != null && !RobotsPolicy.isAllowedByRobots(rules, pending.request().getUrl())) {
        // no request is made, so the origin's delay is not spent: the next waiting request may go at once
        Decision decision = Decision.of(pending.request().getUrl(), Outcome.BLOCKED_BY_ROBOTS_TXT, rules.isAllowNone() ? "robots.txt unavailable" : "robots.txt");
        finish(pending, requestFacts(decision, pending), null);
        continue;
      }
      if (!obeysRobots && ignoringRobots.add(host.origin())) {
        LOG.warn("robots.txt of {} is NOT obeyed: the crawl configuration sets obey-robots-txt: false for its URLs", host.origin());
      }
      fetch(host, pending);
      return;
    }
  }

  /** Whether robots.txt is obeyed for a request: unless the service or the request's options say otherwise. */
  private boolean obeysRobots(Pending pending) {
    return settings.obeyRobots() && !"false".equals(pending.request().getOptions().get(OBEY_ROBOTS_OPTION));
  }

  /** Redirects followed within the request: {@code follow N} in its options, else none (recorded). */
  private static int maxRedirects(Pending pending) {
    String option = pending.request().getOptions().get(REDIRECTS_OPTION);
    if (option != null && option.startsWith("follow ")) {
      try {
        return Math.max(0, Math.min(10, Integer.parseInt(option.substring("follow ".length()).strip())));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  private void fetchRobots(HostQueue<Pending> host) {
    String url = RobotsPolicy.robotsUrl(host.origin());
    host.started(delayOf(host));
    inFlight++;
    fetcher.get(url, Map.of(), RobotsPolicy.MAX_REDIRECTS).thenAccept(attempt -> submit(() -> robotsFetched(host, url, attempt)));
  }

  private void robotsFetched(HostQueue<Pending> host, String url, FetchAttempt attempt) {
    inFlight--;
    long now = now();
    BaseRobotRules rules = robots.rulesFrom(url, attempt);
    if (rules.isAllowNone()) {
      LOG.warn("{} could not be read ({}): not crawling {} for {}", url, describe(attempt), host.origin(), robots.validity(rules));
    }
    host.robots(rules, now + robots.validity(rules).toMillis());
    host.ended(now);
    reschedule(host);
  }

  private void fetch(HostQueue<Pending> host, Pending pending) {
    FetchRequest request = pending.request();
    host.started(delayOf(pending));
    inFlight++;
    Map<String, String> headers = new HashMap<>();
    if (request.getIfNoneMatch() != null) {
      headers.put("If-None-Match", request.getIfNoneMatch());
    }
    if (request.getIfModifiedSince() != null) {
      headers.put("If-Modified-Since", request.getIfModifiedSince());
    }
    Instant startedAt = Instant.now();
    fetcher.get(request.getUrl(), headers, maxRedirects(pending)).thenAccept(attempt -> submit(() -> fetched(host, pending, startedAt, attempt)));
  }

  private void fetched(HostQueue<Pending> host, Pending pending, Instant startedAt, FetchAttempt attempt) {
    inFlight--;
    host.ended(now());
    reschedule(host);
    FetchRequest request = pending.request();
    try {
      FetchVerdict verdict = FetchVerdict.of(request.getUrl(), attempt);
      if (verdict.isFetched()) {
        FetchAttempt.Response response = (FetchAttempt.Response) attempt;
        send(pending.partition(), pending.offset(), List.of(record(topics.fetchResults(), pending.origin(), result(request, response, startedAt))), true);
        return;
      }
      Decision decision = requestFacts(Decision.of(request.getUrl(), verdict.outcome().orElseThrow(), verdict.detail().orElse(null)), pending).withDuration(attempt.durationMillis());
      if (attempt instanceof FetchAttempt.Response response) {
        decision = decision.withStatus(response.status());
      }
      finish(pending, decision, verdict.redirectTarget().orElse(null));
    } catch (RuntimeException e) {
      LOG.error("cannot handle the response of {}", request.getUrl(), e);
      finish(pending, requestFacts(Decision.of(request.getUrl(), Outcome.ERROR, e.toString()), pending), null);
    }
  }

  /** Writes a decision that ends a request (and a redirect's target), and marks the request done once written. */
  private void finish(Pending pending, Decision decision, @Nullable String redirectTarget) {
    Instant now = Instant.now();
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(3);
    records.add(record(topics.outcomes(), pending.origin(), decision.toOutcome(SERVICE, now).build()));
    records.add(record(topics.log(), pending.origin(), decision.toLogEntry(SERVICE, now)));
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
    return decision.withRequest(pending.request().getRequestId(), pending.request().getDepth(), pending.request().getAttempt());
  }

  private FetchResult result(FetchRequest request, FetchAttempt.Response response, Instant startedAt) {
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
        .setRobotsVerdict(!"false".equals(request.getOptions().get(OBEY_ROBOTS_OPTION)) && settings.obeyRobots() ? RobotsVerdict.ALLOWED : RobotsVerdict.IGNORED)
        .setOptions(request.getOptions())
        .build();
  }

  /**
   * Sends the records of one request; when Kafka has acknowledged them all, the request's offset is
   * done. If the main record cannot be written, an ERROR outcome is written in its place so the
   * frontier does not wait for it.
   */
  private void send(TopicPartition partition, long offset, List<ProducerRecord<byte[], byte[]>> records, boolean hasFallback) {
    AtomicInteger remaining = new AtomicInteger(records.size());
    AtomicBoolean failed = new AtomicBoolean();
    unacknowledged++;
    for (ProducerRecord<byte[], byte[]> record : records) {
      producer.send(
          record,
          (metadata, error) -> {
            if (error != null && failed.compareAndSet(false, true)) {
              LOG.error("cannot write to {}: {}", record.topic(), error.toString());
            }
            if (remaining.decrementAndGet() == 0) {
              submit(() -> acknowledged(partition, offset, failed.get() && hasFallback ? records.get(0) : null, error));
            }
          });
    }
  }

  private void acknowledged(TopicPartition partition, long offset, @Nullable ProducerRecord<byte[], byte[]> failedResult, @Nullable Exception error) {
    unacknowledged--;
    if (failedResult != null) {
      FetchResult result = topics.fetchResults().valueSerde().deserializer().deserialize(failedResult.topic(), failedResult.value());
      if (result != null) {
        Decision decision =
            Decision.of(result.getUrl(), Outcome.ERROR, "cannot write the fetch result: " + error).withRequest(result.getRequestId(), result.getDepth(), result.getAttempt());
        String origin = new String(failedResult.key(), java.nio.charset.StandardCharsets.UTF_8);
        Instant now = Instant.now();
        send(partition, offset, List.of(record(topics.outcomes(), origin, decision.toOutcome(SERVICE, now).build()), record(topics.log(), origin, decision.toLogEntry(SERVICE, now))), false);
        return;
      }
    }
    OffsetTracker tracker = trackers.get(partition);
    if (tracker != null) {
      tracker.done(offset);
    }
  }

  private <V> ProducerRecord<byte[], byte[]> record(TopicSpec<String, V> topic, @Nullable String key, V value) {
    byte[] keyBytes = key == null ? null : topic.keySerde().serializer().serialize(topic.name(), key);
    return new ProducerRecord<>(topic.name(), keyBytes, topic.valueSerde().serializer().serialize(topic.name(), value));
  }

  private void reschedule(HostQueue<Pending> host) {
    if (host.hasWaiting()) {
      ready.add(host);
    }
  }

  private long delayOf(HostQueue<Pending> host) {
    return host.peek().map(this::delayOf).orElse(settings.delayMillis());
  }

  private long delayOf(Pending pending) {
    String option = pending.request().getOptions().get(DELAY_OPTION);
    if (option != null) {
      try {
        long delay = Long.parseLong(option.strip());
        if (delay >= 0) {
          return delay;
        }
      } catch (NumberFormatException e) {
        // a bad option: the configured delay applies
      }
    }
    return settings.delayMillis();
  }

  private void submit(Runnable task) {
    tasks.add(task);
    consumer.wakeup();
  }

  private void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  private void commit(boolean sync) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    trackers.forEach((partition, tracker) -> tracker.committable().ifPresent(offset -> offsets.put(partition, new OffsetAndMetadata(offset))));
    if (offsets.isEmpty()) {
      return;
    }
    if (sync) {
      commitSync(offsets);
    } else {
      consumer.commitAsync(offsets, (committed, error) -> {
        if (error != null) {
          LOG.warn("committing offsets failed (they are committed again later): {}", error.toString());
        }
      });
    }
  }

  private void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        consumer.commitSync(offsets);
        return;
      } catch (WakeupException e) {
        // a completion woke the consumer: commit again
      }
    }
    LOG.warn("offsets {} not committed: the consumer kept being woken", offsets);
  }

  /** Forgets origins with nothing waiting whose delay is over, so memory follows the active origins. */
  private void forgetIdleHosts(long now) {
    hosts.values().removeIf(host -> !host.isBusy() && !host.hasWaiting() && host.isReady(now) && host.needsRobots(now));
  }

  private void applyBackpressure() {
    if (!isPaused && held >= settings.maxHeld()) {
      consumer.pause(consumer.assignment());
      isPaused = true;
    } else if (isPaused && held < settings.maxHeld() / 2) {
      consumer.resume(consumer.paused());
      isPaused = false;
    }
  }

  /** After stop(): finish the requests in flight, write their results, commit. */
  private void drain() {
    long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
    while ((inFlight > 0 || unacknowledged > 0) && System.nanoTime() < deadline) {
      try {
        Runnable task = tasks.poll(100, TimeUnit.MILLISECONDS);
        if (task != null) {
          task.run();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (inFlight == 0) {
        producer.flush();
      }
    }
    runTasks();
    commit(true);
  }

  private static String describe(FetchAttempt attempt) {
    return attempt instanceof FetchAttempt.Response response ? "status " + response.status() : ((FetchAttempt.Failure) attempt).detail();
  }

  private static long now() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  /** Commits what is done before partitions go, and forgets their waiting requests. */
  private final class Rebalance implements ConsumerRebalanceListener {

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      runTasks();
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      for (TopicPartition partition : partitions) {
        OffsetTracker tracker = trackers.get(partition);
        if (tracker != null) {
          tracker.committable().ifPresent(offset -> offsets.put(partition, new OffsetAndMetadata(offset)));
        }
      }
      if (!offsets.isEmpty()) {
        commitSync(offsets);
      }
      forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      forget(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      partitions.forEach(partition -> trackers.put(partition, new OffsetTracker()));
    }

    private void forget(Collection<TopicPartition> partitions) {
      partitions.forEach(trackers::remove);
      for (HostQueue<Pending> host : hosts.values()) {
        held -= host.removeIf(pending -> partitions.contains(pending.partition()));
      }
    }
  }
}
