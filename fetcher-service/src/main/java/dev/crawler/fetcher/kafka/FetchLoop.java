package dev.crawler.fetcher.kafka;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.Outcome;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher's one loop thread: reads fetch requests, holds them in their origins' queues ({@link
 * Origins}), has the {@link RequestRunner} start what politeness allows, and between polls runs
 * what other threads handed it (HTTP completions, Kafka's acknowledgements), commits offsets
 * ({@link PartitionOffsets}), shares politeness ({@link PolitenessHandover}) and forgets idle
 * origins. The thread never blocks on HTTP; it stops reading while it holds too many requests or
 * Kafka takes no results ({@link ResultWriter}). Partitions change owner through {@link Rebalance}.
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

  /** How long one commit may wait for Kafka: a broker away must not hold a stop past its grace. */
  static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);

  /** How often the loop looks again while Kafka acknowledges nothing. */
  static final long UNACKNOWLEDGED_RECHECK_MILLIS = 100;

  /**
   * Settings of the loop.
   *
   * @param defaults the options of a request that sets none
   * @param maxInFlight requests in flight at most, over all origins
   * @param maxHeld requests held in memory at most before reading stops
   * @param commitInterval how often offsets are committed and politeness state written
   * @param maxHold the longest a request waits here for its origin before it is deferred
   * @param backoffQuiet how long without rate limits or failures before an origin's back-off halves
   * @param handoverTimeout how long a revoked partition's running requests may take to finish
   * @param instanceId names this fetcher in the politeness state it writes
   * @param readsTdmRep whether each origin's {@code /.well-known/tdmrep.json} is read (after its
   *     robots.txt, as often), for the usage preferences its pages carry
   */
  public record Settings(
      FetchOptions defaults,
      int maxInFlight,
      int maxHeld,
      Duration commitInterval,
      Duration maxHold,
      Duration backoffQuiet,
      Duration handoverTimeout,
      String instanceId,
      boolean readsTdmRep) {}

  /**
   * The loop's Kafka clients, closed with it.
   *
   * @param requests reads fetch requests in the fetchers' group
   * @param stateReader reads the politeness topic's partitions on assignment, outside any group
   *     (assigned by hand)
   * @param producer writes results, outcomes, discovered URLs, politeness state and dead letters
   * @param control reads operators' commands (no group, every partition); null for none
   */
  public record Clients(
      Consumer<byte[], byte[]> requests,
      Consumer<byte[], byte[]> stateReader,
      Producer<byte[], byte[]> producer,
      @Nullable Consumer<byte[], byte[]> control) {

    /** Clients that take no operators' commands. */
    public Clients(
        Consumer<byte[], byte[]> requests,
        Consumer<byte[], byte[]> stateReader,
        Producer<byte[], byte[]> producer) {
      this(requests, stateReader, producer, null);
    }
  }

  private final Clients clients;
  private final Consumer<byte[], byte[]> consumer;
  private final Topics topics;
  private final FetchTier tier;
  private final PageFetcher fetcher;
  private final Settings settings;
  private final InstantSource clock;
  private final RecordDecoder<String, FetchRequest> decoder;
  private final FetcherMetrics metrics;
  private final LoopTasks tasks;
  private final Origins origins;
  private final PartitionOffsets offsets;
  private final FetchRecords records;
  private final ResultWriter writer;
  private final RequestEnds ends;
  private final RequestRunner runner;
  private final PolitenessHandover handover;
  private final OperatorView operators;

  /** The ids of the commands acted on, oldest first: each comes once per control partition. */
  private final Set<String> acknowledged = new LinkedHashSet<>();

  private static final int MAX_REMEMBERED_COMMANDS = 1_000;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicBoolean stopped = new AtomicBoolean();
  private boolean isPaused;
  private long lastCommit;

  /**
   * A loop of a tier ({@link FetchTier}): the fetchers', or the render tier's.
   *
   * @param clock the loop's one clock: politeness, hold times and every record's time
   * @param log counts and writes the crawl-log entries of the requests that end here
   * @param registry where the loop's meters go
   */
  public FetchLoop(
      Clients clients,
      Topics topics,
      FetchTier tier,
      PageFetcher fetcher,
      RobotsPolicy robots,
      Settings settings,
      InstantSource clock,
      CrawlLog log,
      MeterRegistry registry) {
    this.clients = clients;
    this.tier = tier;
    this.consumer = clients.requests();
    this.topics = topics;
    this.fetcher = fetcher;
    this.settings = settings;
    this.clock = clock;
    this.decoder = new RecordDecoder<>(tier.requests());
    this.metrics = new FetcherMetrics(registry);
    this.tasks = new LoopTasks(consumer);
    this.origins =
        new Origins(settings.defaults(), settings.backoffQuiet().toMillis(), fetcher::forget);
    this.operators = new OperatorView(clients.control(), topics.control(), topics.config());
    this.offsets = new PartitionOffsets(consumer, tier.requests().name(), COMMIT_TIMEOUT);
    this.records =
        new FetchRecords(
            topics,
            tier,
            log,
            clock,
            settings.instanceId(),
            new ResultPartitions(clients.producer(), topics.fetchResults().name()));
    this.writer =
        new ResultWriter(
            clients.producer(), offsets, records, tasks, clock, 2 * settings.maxInFlight());
    this.ends = new RequestEnds(origins, writer, records, offsets, clock, settings.maxHold());
    this.runner =
        new RequestRunner(
            origins,
            fetcher,
            robots,
            ends,
            writer,
            records,
            offsets,
            tasks,
            metrics,
            clock,
            settings.maxInFlight(),
            settings.maxHold(),
            operators,
            tier.pages(),
            settings.readsTdmRep());
    this.handover =
        new PolitenessHandover(
            clients.stateReader(),
            tier.politeness().name(),
            records,
            writer,
            offsets,
            origins,
            clock,
            settings.handoverTimeout());
    this.lastCommit = clock.millis();
  }

  @Override
  public void run() {
    try {
      operators.start();
      subscribe();
      while (running.get()) {
        iterate();
      }
      drain();
    } catch (RuntimeException e) {
      LOG.error("the fetch loop failed", e);
    } finally {
      close();
    }
  }

  /**
   * Asks the loop to stop: it finishes the requests in flight (for up to {@link #CLOSE_GRACE}),
   * commits and closes.
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

  void subscribe() {
    consumer.subscribe(
        List.of(tier.requests().name()),
        new Rebalance(
            offsets, writer, origins, handover, tasks, clock, settings.handoverTimeout()));
  }

  /** One turn of the loop: what was handed over, what may start, housekeeping, one poll. */
  void iterate() {
    tasks.runAll();
    for (ControlCommand command : operators.poll()) {
      onCommand(command);
    }
    writer.writeUnwritten();
    long now = clock.millis();
    long untilNext =
        writer.canWriteResults() ? runner.startReady(now) : UNACKNOWLEDGED_RECHECK_MILLIS;
    if (now - lastCommit >= settings.commitInterval().toMillis()) {
      offsets.commitAsync();
      handover.shareChanged(now);
      origins.forgetIdle(now).forEach(handover::withdraw);
      lastCommit = now;
    }
    applyBackpressure();
    metrics.load(runner.inFlight(), origins.held(), origins.size(), origins.pausedCount());
    long timeout = Math.max(0, Math.min(untilNext, MAX_POLL.toMillis()));
    try {
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(timeout))) {
        accept(record);
      }
    } catch (WakeupException e) {
      // a completion or stop() woke the loop
    }
  }

  /**
   * An operator's command: a pause or a block answers the target's waiting requests at once ({@code
   * DEFERRED}: the frontier keeps them queued, and holds the origins too); cookies are dropped.
   * Acknowledged in the crawl log, naming this fetcher.
   */
  private void onCommand(ControlCommand command) {
    if (!acknowledged.add(command.getCommandId())) {
      return; // another partition's copy of a command done here
    }
    if (acknowledged.size() > MAX_REMEMBERED_COMMANDS) {
      acknowledged.remove(acknowledged.iterator().next());
    }
    String target = command.getTarget();
    String what = "applied";
    switch (command.getCommand()) {
      case PAUSE, BLOCK -> {
        int withdrawn = runner.withdrawHeld(origin -> OperatorHolds.covers(target, origin));
        what = withdrawn + " waiting requests given back";
      }
      case CLEAR_COOKIES -> {
        int dropped;
        if (target.isEmpty() || target.equals(OperatorHolds.ALL)) {
          dropped = fetcher.forgetCookies();
        } else {
          List<String> known = origins.known(origin -> OperatorHolds.covers(target, origin));
          known.forEach(fetcher::forget);
          if (!known.contains(target) && target.contains("://")) {
            fetcher.forget(target);
          }
          dropped = known.size();
        }
        what = "cookies and sessions dropped (" + dropped + " origins)";
      }
      case RESUME, UNBLOCK, SET_DELAY -> {}
      default -> {
        return; // the frontier's alone
      }
    }
    LOG.info("{} {} by {}: {}", command.getCommand(), target, command.getIssuedBy(), what);
    writer.sendUntracked(records.acknowledged(command, what));
  }

  private void accept(ConsumerRecord<byte[], byte[]> raw) {
    TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
    if (!offsets.received(partition, raw.offset())) {
      return; // the partition's previous owner did it: its result is written
    }
    FetchRequest request;
    try {
      request = decoder.decode(raw).value();
    } catch (UndecodableRecordException e) {
      LOG.warn("dead letter: {}", e.getMessage());
      writer.send(partition, raw.offset(), List.of(records.deadLetter(raw, e)), false);
      return;
    }
    if (request == null) {
      offsets.done(partition, raw.offset());
      return;
    }
    FetchOptions options = settings.defaults().with(request.getOptions());
    String origin;
    try {
      origin = Origin.keyOf(request.getUrl());
    } catch (RuntimeException e) {
      Pending unfetchable =
          new Pending(partition, raw.offset(), "", request, options, clock.millis());
      ends.end(
          unfetchable,
          Decision.of(request.getUrl(), Outcome.ERROR, "not a fetchable URL: " + e.getMessage()),
          null);
      return;
    }
    origins.hold(new Pending(partition, raw.offset(), origin, request, options, clock.millis()));
  }

  /**
   * Stops reading while the origins' queues hold {@code maxHeld} requests or Kafka takes no
   * results; reads again below half of it once Kafka takes them.
   */
  private void applyBackpressure() {
    boolean canWrite = writer.couldWriteResults();
    boolean isFull = origins.held() >= settings.maxHeld() || !canWrite;
    if (!isPaused && isFull) {
      consumer.pause(consumer.assignment());
      isPaused = true;
    } else if (isPaused && origins.held() < settings.maxHeld() / 2 && canWrite) {
      consumer.resume(consumer.paused());
      isPaused = false;
    }
  }

  /** After stop(): finish the requests in flight, write their results, commit. */
  void drain() {
    long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
    // results Kafka stopped acknowledging (the broker away) are not waited for: their offsets stay
    // uncommitted, and the partition's next owner fetches those requests again
    while ((runner.inFlight() > 0 || (writer.hasWaiting() && !writer.isStalled()))
        && System.nanoTime() < deadline) {
      writer.writeUnwritten();
      // no flush: with the broker away it would wait for the delivery timeout (2 minutes), past
      // any grace period; the producer sends what it holds within its linger, and the
      // acknowledgements come as tasks
      if (!tasks.runNext(100)) {
        break;
      }
    }
    tasks.runAll();
    offsets.commitSync();
  }

  private void close() {
    try {
      // a stopped fetcher leaves its group, named or not:
      // its partitions move now, not after the session timeout
      consumer.close(
          CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
              .withTimeout(COMMIT_TIMEOUT));
    } finally {
      // outside any group: nothing to wait for but the broker holding the session's last fetch
      clients.stateReader().close(CloseOptions.timeout(Duration.ZERO));
      operators.close();
      clients.producer().close(COMMIT_TIMEOUT);
      fetcher.close();
      stopped.set(true);
      synchronized (stopped) {
        stopped.notifyAll();
      }
    }
  }
}
