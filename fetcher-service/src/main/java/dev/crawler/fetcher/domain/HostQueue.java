package dev.crawler.fetcher.domain;

import crawlercommons.robots.BaseRobotRules;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One origin's requests waiting in this fetcher, and its politeness: at most one request to the origin
 * at a time, and the next starts no sooner than the delay after the previous one ended (seed 003: one
 * crawl loop per origin). Robots.txt requests count as requests. Times are milliseconds of one
 * monotonic clock. Not thread-safe: owned by the fetch loop's thread.
 *
 * @param <T> a waiting request
 */
public final class HostQueue<T> {

  private final String origin;
  private final ArrayDeque<T> waiting = new ArrayDeque<>();
  private boolean isBusy;
  private long lastEndedAt = Long.MIN_VALUE;
  private long delayMillis;
  private @Nullable BaseRobotRules robots;
  private long robotsExpireAt;

  public HostQueue(String origin) {
    this.origin = origin;
  }

  public String origin() {
    return origin;
  }

  public void add(T request) {
    waiting.addLast(request);
  }

  /** Removes the waiting requests that match, e.g. those of a partition this fetcher no longer owns. */
  public int removeIf(Predicate<T> filter) {
    int removed = 0;
    for (Iterator<T> it = waiting.iterator(); it.hasNext(); ) {
      if (filter.test(it.next())) {
        it.remove();
        removed++;
      }
    }
    return removed;
  }

  public boolean hasWaiting() {
    return !waiting.isEmpty();
  }

  public int waitingCount() {
    return waiting.size();
  }

  public boolean isBusy() {
    return isBusy;
  }

  /** When the next request may start: the end of the last one plus the delay. */
  public long nextStartAt() {
    return lastEndedAt == Long.MIN_VALUE ? Long.MIN_VALUE : lastEndedAt + delayMillis;
  }

  /** Whether a request may start now: none running, and the delay since the last one has passed. */
  public boolean isReady(long now) {
    return !isBusy && now >= nextStartAt();
  }

  /** The next waiting request, left in place. */
  public Optional<T> peek() {
    return Optional.ofNullable(waiting.peekFirst());
  }

  /** Takes the next waiting request, if any. */
  public Optional<T> poll() {
    return Optional.ofNullable(waiting.pollFirst());
  }

  /** A request to the origin starts; {@code delayMillis} is the delay that will follow it. */
  public void started(long delayMillis) {
    this.isBusy = true;
    this.delayMillis = delayMillis;
  }

  /** The request to the origin ended (with a response or not). */
  public void ended(long now) {
    this.isBusy = false;
    this.lastEndedAt = now;
  }

  /** Whether robots.txt must be fetched before the next request: never fetched, or expired. */
  public boolean needsRobots(long now) {
    return robots == null || now >= robotsExpireAt;
  }

  /** The origin's robots rules, once fetched. */
  public Optional<BaseRobotRules> robots() {
    return Optional.ofNullable(robots);
  }

  public void robots(BaseRobotRules rules, long expireAt) {
    this.robots = rules;
    this.robotsExpireAt = expireAt;
  }
}
