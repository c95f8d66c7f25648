package dev.crawler.common.streams;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.jspecify.annotations.Nullable;

/**
 * Commits a stream thread's work as soon as its input goes quiet, instead of at the end of {@code
 * commit.interval.ms}. A hop's output is read by the next only once committed, so the last records
 * of a burst (the last page of a crawl, the links of a page that the fetchers wait for) waited up
 * to the whole interval at every hop. A thread that has processed nothing for {@code
 * commit.quiet.ms} commits at once; a busy thread, whose input never pauses that long, commits at
 * the interval as before, so a crawl under way pays no more transactions.
 *
 * <p>One per task: the processor calls {@link #processed()} for every record, and a wall-clock
 * punctuation checks whether every task of the thread has been quiet long enough. Kafka Streams
 * commits all the thread's tasks together, when one that processed records since the last commit
 * asks. In virtual time (tests) the punctuation follows the test's wall clock.
 */
public final class QuietCommit {

  /** The Streams configuration key (not a Kafka one) carrying the quiet time, in milliseconds. */
  public static final String QUIET_MS_CONFIG = "crawler.commit.quiet.ms";

  /** How often a task checks whether its thread is quiet. */
  static final Duration CHECK_INTERVAL = Duration.ofMillis(10);

  /** What the thread's tasks have processed, counted by all of them. */
  private static final ThreadLocal<ThreadActivity> ACTIVITY =
      ThreadLocal.withInitial(ThreadActivity::new);

  /** Never commits early: a processor's value before its task is initialized. */
  public static final QuietCommit NEVER = new QuietCommit(null, 0);

  private final @Nullable ProcessorContext<?, ?> context;
  private final long quietMs;
  private @Nullable ThreadActivity activity;

  /** Whether this task processed a record since it last asked for a commit. */
  private boolean pending;

  private QuietCommit(@Nullable ProcessorContext<?, ?> context, long quietMs) {
    this.context = context;
    this.quietMs = quietMs;
  }

  /**
   * Schedules the task's check, with the quiet time of the service's settings ({@value
   * #QUIET_MS_CONFIG}; none, or 0, commits at the interval only).
   */
  public static QuietCommit schedule(ProcessorContext<?, ?> context) {
    QuietCommit quiet = new QuietCommit(context, quietMs(context.appConfigs()));
    if (quiet.quietMs > 0) {
      context.schedule(CHECK_INTERVAL, PunctuationType.WALL_CLOCK_TIME, quiet::check);
    }
    return quiet;
  }

  static long quietMs(Map<String, Object> configs) {
    Object value = configs.get(QUIET_MS_CONFIG);
    return value == null ? 0 : Long.parseLong(value.toString());
  }

  /** Counts a record this task processed. */
  public void processed() {
    if (quietMs == 0) {
      return;
    }
    pending = true;
    if (activity == null) {
      // the thread the task runs on: processing and punctuation both run on it
      activity = ACTIVITY.get();
    }
    activity.processed++;
  }

  private void check(long now) {
    ThreadActivity thread = ACTIVITY.get();
    activity = thread;
    if (thread.processed != thread.seen) {
      thread.seen = thread.processed;
      thread.quietSince = now;
    } else if (pending && now - thread.quietSince >= quietMs) {
      pending = false;
      Objects.requireNonNull(context).commit();
    }
  }

  /** A stream thread's count of processed records, and since when it has not moved. */
  private static final class ThreadActivity {
    long processed;
    long seen;
    long quietSince;
  }
}
