package dev.crawler.fetcher.domain;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of response bodies a fetcher holds at once, over all its requests: a body reserves what
 * it grows to, and gives it back when its request ends. A body that cannot reserve more fails its
 * request (retried later, as a network error), and no request starts while there is no room for a
 * body of the largest size: back-pressure instead of an out-of-memory error, however many large
 * bodies arrive together. Thread-safe.
 */
public final class BodyBudget {

  private final long capacity;
  private final AtomicLong used = new AtomicLong();

  /**
   * @param capacity the bytes bodies may hold at once
   */
  public BodyBudget(long capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("a body budget is positive, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** The budget of a JVM whose heap is {@code maxHeapBytes}: a quarter of it. */
  public static BodyBudget ofHeap(long maxHeapBytes) {
    return new BodyBudget(Math.max(1, maxHeapBytes / 4));
  }

  /** Reserves {@code bytes} when they fit; returns whether they did. */
  public boolean tryReserve(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > capacity) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** Gives back bytes reserved before. */
  public void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Whether a body of {@code bytes} would fit now. */
  public boolean hasRoomFor(long bytes) {
    return used.get() + bytes <= capacity;
  }

  /** The bytes reserved now. */
  public long used() {
    return used.get();
  }

  /** The bytes bodies may hold at once. */
  public long capacity() {
    return capacity;
  }
}
