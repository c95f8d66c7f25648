package dev.crawler.common.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Tells a service that makes no progress while it has work from one that is idle: progress is a
 * counter that grows as the service works (records processed, restored or consumed), work is what
 * the service has to do (records behind, a rebalance or a restoration under way). A service whose
 * counter stood still for longer than the bound while it had work all along is stalled; one with
 * nothing to do never is.
 *
 * <p>Thread-safe: observed by one thread, asked by another (the liveness probe).
 */
public final class ProgressWatch {

  private final Duration bound;
  private long progress = Long.MIN_VALUE;
  private Instant movedAt = Instant.MIN;
  private Optional<String> work = Optional.empty();

  /**
   * @param bound how long a service may have work and make no progress before it is stalled
   */
  public ProgressWatch(Duration bound) {
    this.bound = bound;
  }

  /**
   * Records one observation.
   *
   * @param progress the counter now
   * @param work what the service has to do now, empty when nothing
   * @param now when it was observed
   */
  public synchronized void observe(long progress, Optional<String> work, Instant now) {
    if (work.isEmpty() || progress != this.progress || this.work.isEmpty()) {
      // idle, moving, or work that has just come: the clock of the standstill starts again
      movedAt = now;
    }
    this.progress = progress;
    this.work = work;
  }

  /**
   * What is wrong when the service is stalled: how long it made no progress, and what it had to do.
   */
  public synchronized Optional<String> stall(Instant now) {
    if (work.isEmpty()) {
      return Optional.empty();
    }
    Duration standing = Duration.between(movedAt, now);
    if (standing.compareTo(bound) <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        "no progress for "
            + standing.toSeconds()
            + " s (bound "
            + bound.toSeconds()
            + " s) while "
            + work.get());
  }
}
