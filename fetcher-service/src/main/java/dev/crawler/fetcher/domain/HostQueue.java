package dev.crawler.fetcher.domain;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.common.usage.RobotsUsageRules;
import dev.crawler.common.usage.TdmRepFile;
import dev.crawler.common.usage.UsageFindings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Everything this fetcher knows about one origin: its requests waiting here, its robots.txt rules,
 * its {@link OriginPoliteness}, the partition its requests come from and whether its politeness
 * state is shared with the origin's next owner. Robots.txt requests count as requests. Forgetting
 * an origin is forgetting this one object. Not thread-safe: owned by the fetch loop's thread.
 *
 * @param <T> a waiting request
 */
public final class HostQueue<T> {

  private final String origin;
  private final ArrayDeque<T> waiting = new ArrayDeque<>();
  private final OriginPoliteness politeness;
  private @Nullable BaseRobotRules robots;
  private long robotsExpireAt;
  private RobotsUsageRules robotsUsage = RobotsUsageRules.NONE;
  private TdmRepFile tdmRep = TdmRepFile.NONE;
  private long tdmRepExpireAt;
  private boolean isFetchingRobots;
  private int partition;
  private boolean isPolitenessChanged;
  private boolean isPolitenessShared;
  private boolean isPauseNoticed;
  private boolean isRobotsIgnoredNoticed;

  /**
   * A request is waiting here, or something changed, while the origin may not be fetched for this
   * long: its waiting requests go back to the frontier instead.
   *
   * @param until when the origin may be fetched again (epoch ms)
   * @param reason why, for the crawl log
   */
  public record Deferral(long until, String reason) {}

  /**
   * @param partition the partition of the request topic the origin's requests come from
   */
  public HostQueue(String origin, OriginPoliteness politeness, int partition) {
    this.origin = origin;
    this.politeness = politeness;
    this.partition = partition;
  }

  public String origin() {
    return origin;
  }

  public OriginPoliteness politeness() {
    return politeness;
  }

  /** The partition of the request topic the origin's requests come from. */
  public int partition() {
    return partition;
  }

  public void partition(int partition) {
    this.partition = partition;
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

  /** How many requests wait. */
  public int waiting() {
    return waiting.size();
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
   * Whether a request may start now, robots.txt's included; none does while robots.txt is fetched.
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

  /** The usage preferences robots.txt states (Content-Usage, Content-Signal), per path. */
  public void robotsUsage(RobotsUsageRules rules) {
    this.robotsUsage = rules;
  }

  /** Whether the origin's tdmrep.json must be read before its next request: never, or expired. */
  public boolean needsTdmRep(long now) {
    return tdmRepExpireAt == 0 || now >= tdmRepExpireAt;
  }

  public void tdmRep(TdmRepFile file, long expireAt) {
    this.tdmRep = file;
    this.tdmRepExpireAt = expireAt;
  }

  /** What robots.txt and tdmrep.json state about the uses of a URL of this origin. */
  public UsageFindings usageOf(String url) {
    if (robotsUsage == RobotsUsageRules.NONE && tdmRep == TdmRepFile.NONE) {
      return UsageFindings.NONE;
    }
    String path = pathOf(url);
    return robotsUsage.findingsFor(path).and(tdmRep.findingsFor(path));
  }

  /** The path and query of a URL of this origin ({@code /} when it has none). */
  private String pathOf(String url) {
    int start = url.startsWith(origin) ? origin.length() : url.indexOf('/', url.indexOf("://") + 3);
    if (start < 0 || start >= url.length()) {
      return "/";
    }
    int fragment = url.indexOf('#', start);
    String path = fragment < 0 ? url.substring(start) : url.substring(start, fragment);
    return path.startsWith("/") ? path : "/" + path;
  }

  /**
   * Whether the origin's waiting requests should go back to the frontier rather than wait here: the
   * origin is paused (its patience ran out), or its next request is due further away than {@code
   * maxHoldMillis} (a long Retry-After or back-off; not while robots.txt is fetched, whose end
   * decides the next start).
   */
  public Optional<Deferral> deferral(long now, long maxHoldMillis) {
    if (!hasWaiting()) {
      return Optional.empty();
    }
    if (politeness.isPaused(now)) {
      return Optional.of(
          new Deferral(politeness.pausedUntil(), "origin paused (patience ran out)"));
    }
    if (!isFetchingRobots && nextStartAt() - now > maxHoldMillis) {
      return Optional.of(
          new Deferral(
              nextStartAt(),
              "origin's next request not due within " + maxHoldMillis / 1000 + " s"));
    }
    return Optional.empty();
  }

  /**
   * When a URL of this origin that ends now may be tried again, if not soon: the end of the
   * origin's pause or of its next delay when either is further away than {@code maxHoldMillis};
   * otherwise 0 (the frontier may release the origin's next URL at once).
   */
  public long comesBackAt(long now, long maxHoldMillis) {
    if (politeness.isPaused(now) || nextStartAt() - now > maxHoldMillis) {
      return Math.max(politeness.nextStartAt(), politeness.pausedUntil());
    }
    return 0;
  }

  /**
   * Whether the origin can be forgotten: nothing waiting or running, its delay and pause over, its
   * robots.txt expired (so a new request would fetch it again anyway).
   */
  public boolean isIdle(long now) {
    return !hasWaiting()
        && !politeness.isBusy()
        && !isFetchingRobots
        && now >= nextStartAt()
        && !politeness.isPaused(now)
        && needsRobots(now);
  }

  /** Whether the politeness changed since it was last shared. */
  public boolean isPolitenessChanged() {
    return isPolitenessChanged;
  }

  public void politenessChanged(boolean isChanged) {
    this.isPolitenessChanged = isChanged;
  }

  /**
   * Whether the politeness state was shared with the origin's next owner and not withdrawn since
   * (so a withdrawal is due when it is back to a fresh state).
   */
  public boolean isPolitenessShared() {
    return isPolitenessShared;
  }

  public void politenessShared(boolean isShared) {
    this.isPolitenessShared = isShared;
  }

  /**
   * Notes that the origin was paused; returns whether this is news (it was not noted as paused).
   */
  public boolean noticePause() {
    boolean isNews = !isPauseNoticed;
    isPauseNoticed = true;
    return isNews;
  }

  /** Notes that a request started after a pause; returns whether the origin was noted as paused. */
  public boolean noticePauseOver() {
    boolean wasPaused = isPauseNoticed;
    isPauseNoticed = false;
    return wasPaused;
  }

  public boolean isPauseNoticed() {
    return isPauseNoticed;
  }

  /**
   * Notes that a request went without obeying robots.txt; returns whether this is the first time.
   */
  public boolean noticeRobotsIgnored() {
    boolean isFirst = !isRobotsIgnoredNoticed;
    isRobotsIgnoredNoticed = true;
    return isFirst;
  }
}
