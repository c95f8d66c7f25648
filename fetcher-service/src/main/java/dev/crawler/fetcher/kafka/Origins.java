package dev.crawler.fetcher.kafka;

import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OriginPoliteness;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The origins this fetcher knows, each one {@link HostQueue} (its waiting requests, robots.txt,
 * politeness, partition and flags), and which of them may have a request to start. Counts the
 * requests held in memory and the origins paused. Owned by the fetch loop's thread.
 */
final class Origins {

  private static final Logger LOG = LoggerFactory.getLogger(Origins.class);

  private final FetchOptions defaults;
  private final long backoffQuietMillis;
  private final Consumer<String> onForgotten;
  private final Map<String, HostQueue<Pending>> hosts = new HashMap<>();

  /** Origins that may have a request to start; put back when a request ends or arrives. */
  private final Set<HostQueue<Pending>> ready = new LinkedHashSet<>();

  /** Politeness state taken over for origins of assigned partitions not yet seen here. */
  private final Map<String, OriginPoliteness.Snapshot> takenOver = new HashMap<>();

  private int held;
  private int paused;

  /**
   * @param defaults the options of an origin until its first request brings its own
   * @param backoffQuietMillis how long without rate limits or failures before a back-off is halved
   */
  Origins(FetchOptions defaults, long backoffQuietMillis) {
    this(defaults, backoffQuietMillis, origin -> {});
  }

  /**
   * @param onForgotten told each origin forgotten (with its partition, or idle), so that what the
   *     HTTP client keeps for it (a login session, cookies) goes too: the partition's new owner
   *     logs in again
   */
  Origins(FetchOptions defaults, long backoffQuietMillis, Consumer<String> onForgotten) {
    this.defaults = defaults;
    this.backoffQuietMillis = backoffQuietMillis;
    this.onForgotten = onForgotten;
  }

  /**
   * Holds a request in its origin's queue (the origin known from now on, going on from the
   * politeness state taken over from its previous owner if any).
   */
  void hold(Pending pending) {
    HostQueue<Pending> host = hosts.get(pending.origin());
    if (host == null) {
      host =
          new HostQueue<>(
              pending.origin(),
              new OriginPoliteness(defaults, backoffQuietMillis),
              pending.partition().partition());
      OriginPoliteness.Snapshot previous = takenOver.remove(pending.origin());
      if (previous != null) {
        host.politeness().restore(previous);
        LOG.debug("{}: going on from the previous owner's politeness {}", host.origin(), previous);
      }
      hosts.put(pending.origin(), host);
    }
    host.partition(pending.partition().partition());
    host.add(pending);
    held++;
    ready.add(host);
  }

  /** A held request left its queue (started, ended or deferred). */
  void released() {
    held--;
  }

  /** The origins that may have a request to start, in the order they became ready. */
  Iterator<HostQueue<Pending>> ready() {
    return ready.iterator();
  }

  /** The origin may have a request to start again (a request ended). */
  void reschedule(HostQueue<Pending> host) {
    if (host.hasWaiting()) {
      ready.add(host);
    }
  }

  /** The origin of that name, when known here. */
  @Nullable HostQueue<Pending> get(String origin) {
    return hosts.get(origin);
  }

  Collection<HostQueue<Pending>> all() {
    return hosts.values();
  }

  /** The origins whose requests come from these partitions. */
  List<HostQueue<Pending>> of(IntPredicate partitions) {
    List<HostQueue<Pending>> of = new ArrayList<>();
    for (HostQueue<Pending> host : hosts.values()) {
      if (partitions.test(host.partition())) {
        of.add(host);
      }
    }
    return of;
  }

  /** The origin was paused; returns whether this is news. */
  boolean paused(HostQueue<Pending> host) {
    boolean isNews = host.noticePause();
    if (isNews) {
      paused++;
    }
    return isNews;
  }

  /** A request of the origin started; returns whether it had been paused. */
  boolean pauseOver(HostQueue<Pending> host) {
    boolean wasPaused = host.noticePauseOver();
    if (wasPaused) {
      paused--;
    }
    return wasPaused;
  }

  /**
   * Forgets the idle origins ({@link HostQueue#isIdle}), so memory follows the active origins, and
   * taken-over state that went stale; returns the origins forgotten.
   */
  List<HostQueue<Pending>> forgetIdle(long now) {
    List<HostQueue<Pending>> forgotten = new ArrayList<>();
    for (Iterator<HostQueue<Pending>> it = hosts.values().iterator(); it.hasNext(); ) {
      HostQueue<Pending> host = it.next();
      if (host.isIdle(now)) {
        it.remove();
        forget(host);
        forgotten.add(host);
      }
    }
    takenOver.values().removeIf(snapshot -> snapshot.isStale(now, backoffQuietMillis));
    return forgotten;
  }

  /**
   * Drops the waiting requests of partitions no longer this fetcher's, and forgets their origins
   * unless a request of theirs still runs (the partitions' next owner has their politeness now).
   */
  void forgetPartitions(IntPredicate partitions) {
    for (Iterator<HostQueue<Pending>> it = hosts.values().iterator(); it.hasNext(); ) {
      HostQueue<Pending> host = it.next();
      held -= host.removeIf(pending -> partitions.test(pending.partition().partition()));
      if (partitions.test(host.partition()) && !host.isBusy() && !host.isFetchingRobots()) {
        it.remove();
        forget(host);
      }
    }
  }

  /** The origins known here that match. */
  List<HostQueue<Pending>> matching(Predicate<String> origin) {
    List<HostQueue<Pending>> found = new ArrayList<>();
    for (HostQueue<Pending> host : hosts.values()) {
      if (origin.test(host.origin())) {
        found.add(host);
      }
    }
    return found;
  }

  /** The names of the origins known here that match. */
  List<String> known(Predicate<String> origin) {
    return matching(origin).stream().map(HostQueue::origin).toList();
  }

  private void forget(HostQueue<Pending> host) {
    ready.remove(host);
    onForgotten.accept(host.origin());
    if (host.isPauseNoticed()) {
      paused--;
    }
  }

  /** Goes on from the politeness state of origins the previous owner of their partition knew. */
  void takeOver(Map<String, OriginPoliteness.Snapshot> states) {
    states.forEach(
        (origin, snapshot) -> {
          HostQueue<Pending> host = hosts.get(origin);
          if (host != null) {
            host.politeness().restore(snapshot);
          } else {
            takenOver.put(origin, snapshot);
          }
        });
  }

  /** Requests held in the origins' queues. */
  int held() {
    return held;
  }

  int size() {
    return hosts.size();
  }

  /** Origins paused (their patience ran out) and not fetched since. */
  int pausedCount() {
    return paused;
  }
}
