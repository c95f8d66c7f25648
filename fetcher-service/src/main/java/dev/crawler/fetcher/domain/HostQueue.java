package dev.crawler.fetcher.domain;

import crawlercommons.robots.BaseRobotRules;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One origin's requests waiting in this fetcher, its robots.txt rules and its {@link
 * OriginPoliteness} (seed 003: one crawl loop per origin). Robots.txt requests count as requests.
 * Not thread-safe: owned by the fetch loop's thread.
 *
 * @param <T> a waiting request
 */
public final class HostQueue<T> {

  private final String origin;
  private final ArrayDeque<T> waiting = new ArrayDeque<>();
  private final OriginPoliteness politeness;
  private @Nullable BaseRobotRules robots;
  private long robotsExpireAt;
  private boolean isFetchingRobots;

  public HostQueue(String origin, OriginPoliteness politeness) {
    this.origin = origin;
    this.politeness = politeness;
  }

  public String origin() {
    return origin;
  }

  public OriginPoliteness politeness() {
    return politeness;
  }

  public void add(T request) {
    waiting.addLast(request);
  }

  /**
   * Removes the waiting requests that match, e.g. those of a partition this fetcher no longer owns.
   */
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

  /** Takes every waiting request out. */
  public List<T> drain() {
    List<T> all = new ArrayList<>(waiting);
    waiting.clear();
    return all;
  }

  public boolean hasWaiting() {
    return !waiting.isEmpty();
  }

  /** Whether a request to the origin is running. */
  public boolean isBusy() {
    return politeness.isBusy();
  }

  /** When the next request may start (epoch ms). */
  public long nextStartAt() {
    return politeness.nextStartAt();
  }

  /**
   * Whether a request may start now, robots.txt included: only one at a time while robots.txt is
   * fetched.
   */
  public boolean isReady(long now) {
    return !isFetchingRobots && politeness.isReady(now);
  }

  /** The next waiting request, left in place. */
  public Optional<T> peek() {
    return Optional.ofNullable(waiting.peekFirst());
  }

  /** Takes the next waiting request, if any. */
  public Optional<T> poll() {
    return Optional.ofNullable(waiting.pollFirst());
  }

  /** Whether robots.txt must be fetched before the next request: never fetched, or expired. */
  public boolean needsRobots(long now) {
    return robots == null || now >= robotsExpireAt;
  }

  /** Robots.txt is being fetched: no other request starts until it is done. */
  public void fetchingRobots(boolean isFetching) {
    this.isFetchingRobots = isFetching;
  }

  public boolean isFetchingRobots() {
    return isFetchingRobots;
  }

  /** The origin's robots rules, once fetched. */
  public Optional<BaseRobotRules> robots() {
    return Optional.ofNullable(robots);
  }

  /** When the robots rules expire (epoch ms). */
  public long robotsExpireAt() {
    return robotsExpireAt;
  }

  public void robots(BaseRobotRules rules, long expireAt) {
    this.robots = rules;
    this.robotsExpireAt = expireAt;
  }
}
