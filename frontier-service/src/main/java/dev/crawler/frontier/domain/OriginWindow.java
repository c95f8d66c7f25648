package dev.crawler.frontier.domain;

import dev.crawler.frontier.state.OriginState;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An origin's release window: its queue (head to tail), its requests in flight (leases), and
 * whether the fetcher asked to leave it alone until some time. The origin releases its queue's head
 * while it has fewer requests in flight than its window, so a slow origin never holds up the others
 * of its partition; an outcome returns the credit. Pure decisions over the stored {@link
 * OriginState}.
 */
public final class OriginWindow {

  private OriginWindow() {}

  /** Whether the fetcher asked to leave the origin alone until a time still to come. */
  public static boolean isHeld(OriginState origin, Instant now) {
    return origin.getPausedUntil().isAfter(now);
  }

  /** Whether the origin has nothing in flight and nothing queued. */
  public static boolean isDrained(OriginState origin) {
    return origin.getInFlight() == 0 && origin.getHead() >= origin.getTail();
  }

  /** Whether the window has room for another request and the queue a URL to fill it. */
  public static boolean hasRoom(OriginState origin, int window) {
    return origin.getInFlight() < window && origin.getHead() < origin.getTail();
  }

  /** Whether the origin could release now: not held, with room and a queued URL. */
  public static boolean canRelease(OriginState origin, int window, Instant now) {
    return !isHeld(origin, now) && hasRoom(origin, window);
  }

  /**
   * A request of the origin ended (its outcome came): the credit comes back, the origin's delay is
   * the fetcher's, and a time to come back later than the current hold holds the origin until then.
   * Returns whether the origin was not held before (a new hold, worth a log line).
   *
   * @param delayMillis the delay the fetcher enforces on the origin now, if it said
   * @param retryAt when the fetcher asks the frontier to come back, if it did
   */
  public static boolean ended(
      OriginState origin, @Nullable Long delayMillis, @Nullable Instant retryAt, Instant now) {
    origin.setInFlight(origin.getInFlight() - 1);
    if (delayMillis != null) {
      origin.setDelayMillis(delayMillis);
    }
    if (retryAt == null || !retryAt.isAfter(origin.getPausedUntil())) {
      return false;
    }
    boolean isNewHold = !isHeld(origin, now);
    origin.setPausedUntil(retryAt);
    return isNewHold;
  }
}
