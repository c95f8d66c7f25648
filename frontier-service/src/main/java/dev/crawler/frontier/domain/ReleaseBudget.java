package dev.crawler.frontier.domain;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many more fetch requests this frontier instance may release ({@code frontier.max.pages}),
 * shared by all its stream tasks. Thread-safe.
 */
public final class ReleaseBudget {

  private final long limit;
  private final AtomicLong released = new AtomicLong();

  private ReleaseBudget(long limit) {
    this.limit = limit;
  }

  /** A budget of {@code limit} releases; 0 or less means no limit. */
  public static ReleaseBudget of(long limit) {
    return new ReleaseBudget(limit);
  }

  /** Takes one release from the budget; false when it is spent. */
  public boolean tryAcquire() {
    if (limit <= 0) {
      released.incrementAndGet();
      return true;
    }
    while (true) {
      long current = released.get();
      if (current >= limit) {
        return false;
      }
      if (released.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /** Gives back a release that was taken but not used. */
  public void giveBack() {
    released.decrementAndGet();
  }

  /** Releases made so far. */
  public long released() {
    return released.get();
  }

  /** Whether the budget is spent: nothing more will be released. */
  public boolean isSpent() {
    return limit > 0 && released.get() >= limit;
  }
}
