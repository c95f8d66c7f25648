package dev.crawler.common.streams;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.jspecify.annotations.Nullable;

/**
 * Commits a lightly loaded stream thread's work as soon as its input pauses, instead of at the end
 * of {@code commit.interval.ms}. A hop's output is read by the next only once committed, so the
 * last records of a crawl (its last page, the outcome the crawl's end waits for) waited up to the
 * whole interval at every hop.
 *
 * <p>A thread asks for a commit once it has processed nothing for {@code commit.quiet.ms}, when
 * what it processed since it was last that quiet is an isolated burst: a few records (at most
 * {@value #MAX_BURST}) after a pause of at least half a commit interval, and not sooner than half a
 * commit interval after it last asked. A busy thread's input never pauses that long (a parser
 * behind busy fetchers; a frontier or committer reading other hops' transactions, one burst per
 * upstream commit, and the fetchers' records between them), so it commits at the interval only: a
 * transaction costs the broker a marker on every partition written, and one per upstream burst cost
 * a crawl about a tenth of its throughput. The last pages of a crawl, and every page of a slow one,
 * come after such pauses at the hops behind the first. Off by default ({@link
 * StreamsServiceConfig#DEFAULT_COMMIT_QUIET_MS}): a crawl of real pages at full speed still went
 * 3–9 % slower with it.
 *
 * <p>One per task: the processor calls {@link #processed()} for every record; a task with records
 * not yet asked for checks its thread every {@link #CHECK_INTERVAL} with a wall-clock punctuation,
 * scheduled when the task processes and cancelled once the thread asked (a punctuation makes Kafka
 * Streams commit the task at the next interval even with nothing new, so an idle task schedules
 * none). Kafka Streams commits every task of the thread together, on one request. Tasks are
 * processed and punctuated on their stream thread, so the counts are the thread's, unsynchronized.
 * In virtual time (tests) the checks follow the test's wall clock.
 *
 * <p><b>Draining.</b> A process that knows its crawl has nothing left to release (the frontier's
 * queues empty: only the pages in flight remain, and the links they bring) says so with {@value
 * #DRAINING_CONFIG}, a {@link BooleanSupplier} in the Streams properties. While it says so, a task
 * asks for a commit once its thread has been quiet for {@link #DRAINING_QUIET} (or the quiet time,
 * if shorter), whatever the burst, at most once per {@link #DRAINING_GAP}: whatever a hop holds
 * uncommitted then is what the crawl waits for, and no busy crawl pays for the transactions.
 */
public final class QuietCommit {

  /** The Streams configuration key (not a Kafka one) carrying the quiet time, in milliseconds. */
  public static final String QUIET_MS_CONFIG = "crawler.commit.quiet.ms";

  /**
   * The Streams configuration key (not a Kafka one) carrying a {@link BooleanSupplier}: whether the
   * crawl is draining, asked once per record. None: never.
   */
  public static final String DRAINING_CONFIG = "crawler.commit.draining";

  /**
   * How long a thread must be quiet while the crawl drains: the producers upstream linger 20 ms, so
   * a pause this long is the end of what they sent together.
   */
  static final Duration DRAINING_QUIET = Duration.ofMillis(20);

  /** The least time between two requests of a thread while the crawl drains. */
  static final Duration DRAINING_GAP = Duration.ofMillis(50);

  private static final BooleanSupplier NEVER_DRAINING = () -> false;

  /** How often a task with records not yet asked for checks whether its thread is quiet. */
  static final Duration CHECK_INTERVAL = Duration.ofMillis(10);

  /**
   * The largest burst committed early: the last page of a crawl, or of a slow one, is a few records
   * at every hop; a busy crawl's bursts are hundreds.
   */
  static final int MAX_BURST = 100;

  /** Never commits early: a processor's value before its task is initialized. */
  public static final QuietCommit NEVER = new QuietCommit(null, 0, 0, NEVER_DRAINING);

  /** What the thread's tasks have processed and asked for, counted by all of them. */
  private static final ThreadLocal<ThreadActivity> ACTIVITY =
      ThreadLocal.withInitial(ThreadActivity::new);

  private final @Nullable ProcessorContext<?, ?> context;
  private final long quietMs;
  private final long minPauseMs;
  private final BooleanSupplier draining;
  private @Nullable ThreadActivity activity;
  private @Nullable Cancellable check;

  private QuietCommit(
      @Nullable ProcessorContext<?, ?> context,
      long quietMs,
      long minPauseMs,
      BooleanSupplier draining) {
    this.context = context;
    this.quietMs = quietMs;
    this.minPauseMs = minPauseMs;
    this.draining = draining;
  }

  /**
   * The task's quiet commits, with the quiet time of the service's settings ({@value
   * #QUIET_MS_CONFIG}; none, or 0, commits at the interval only) and the process's word on whether
   * the crawl drains ({@value #DRAINING_CONFIG}).
   */
  public static QuietCommit of(ProcessorContext<?, ?> context) {
    Map<String, Object> configs = context.appConfigs();
    long quietMs = Math.max(0, longSetting(configs, QUIET_MS_CONFIG, 0));
    long intervalMs = longSetting(configs, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 0);
    BooleanSupplier draining =
        configs.get(DRAINING_CONFIG) instanceof BooleanSupplier supplier
            ? supplier
            : NEVER_DRAINING;
    return quietMs == 0 && draining == NEVER_DRAINING
        ? NEVER
        : new QuietCommit(context, quietMs, intervalMs / 2, draining);
  }

  private static long longSetting(Map<String, Object> configs, String key, long otherwise) {
    Object value = configs.get(key);
    return value == null ? otherwise : Long.parseLong(value.toString());
  }

  /** Counts a record this task processed. */
  public void processed() {
    if (quietMs == 0 && !draining.getAsBoolean()) {
      return;
    }
    if (activity == null) {
      // the thread the task runs on: processing and punctuation both run on it
      activity = ACTIVITY.get();
    }
    activity.processed++;
    if (check == null) {
      check =
          Objects.requireNonNull(context)
              .schedule(CHECK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::check);
    }
  }

  private void check(long now) {
    ThreadActivity thread = ACTIVITY.get();
    activity = thread;
    if (thread.processed != thread.seen) {
      if (thread.paused) {
        // a new burst: the thread had been quiet before it, long enough for it to be isolated?
        thread.burstStart = thread.seen;
        thread.isolated = now - thread.changedAt >= minPauseMs;
        thread.paused = false;
      }
      thread.seen = thread.processed;
      thread.changedAt = now;
      return;
    }
    boolean drains = draining.getAsBoolean();
    // while draining: the quiet time of the settings when shorter, else DRAINING_QUIET
    long quiet =
        drains && (quietMs == 0 || quietMs > DRAINING_QUIET.toMillis())
            ? DRAINING_QUIET.toMillis()
            : quietMs;
    if (now - thread.changedAt < quiet) {
      return;
    }
    thread.paused = true;
    if (thread.requested == thread.processed) {
      // asked for already (by another task of the thread)
      stopChecking();
    } else if (drains) {
      if (now - thread.requestedAt >= DRAINING_GAP.toMillis()) {
        request(thread, now);
      }
    } else if (quietMs == 0
        || !thread.isolated
        || thread.processed - thread.burstStart > MAX_BURST) {
      // no quiet commits but while draining, or a busy thread's burst: left to the interval
      stopChecking();
    } else if (now - thread.requestedAt >= minPauseMs) {
      request(thread, now);
    }
  }

  private void request(ThreadActivity thread, long now) {
    thread.requested = thread.processed;
    thread.requestedAt = now;
    Objects.requireNonNull(context).commit();
    stopChecking();
  }

  private void stopChecking() {
    if (check != null) {
      check.cancel();
      check = null;
    }
  }

  /** A stream thread's counts: records processed, seen by a check, asked for. */
  private static final class ThreadActivity {
    long processed;
    long seen;
    long changedAt;
    boolean paused = true;
    long burstStart;
    boolean isolated = true;
    long requested;
    long requestedAt = Long.MIN_VALUE / 2;
  }
}
