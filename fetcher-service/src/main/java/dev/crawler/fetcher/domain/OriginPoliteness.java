package dev.crawler.fetcher.domain;

import java.util.OptionalLong;

/**
 * One origin's politeness: the delay between the end of one request and the start of the next,
 * raised to robots.txt's Crawl-delay (capped) and by back-off after rate limits and failures,
 * decayed after a quiet period; at most a few requests at once; and a patience counter that pauses
 * the origin when failures look persistent. Times are epoch milliseconds, so the state can pass to
 * the origin's next owner ({@link Snapshot}). Not thread-safe: owned by the fetch loop's thread.
 */
public final class OriginPoliteness {

  /**
   * A next request further away than this is worth sharing at once: a crash of this fetcher takes
   * longer than that to notice, and the origin's next owner must not start early.
   */
  public static final long SIGNIFICANT_WAIT_MILLIS = 10_000;

  /**
   * The smallest back-off: an origin fetched without delay waits at least this after a rate limit.
   */
  public static final long MIN_BACKOFF_MILLIS = 1_000;

  /** What a request's end changed about the origin, for the log. */
  public enum Change {
    NONE,
    /** The delay was raised (rate limit or failure). */
    BACKED_OFF,
    /** The patience ran out: the origin is paused. */
    PAUSED
  }

  /**
   * The state another fetcher needs to go on politely with the origin.
   *
   * @param nextStartAt no request starts before this (epoch ms)
   * @param backoffMillis the raised delay; 0 when none
   * @param backoffChangedAt when the back-off last changed (epoch ms)
   * @param patience what is left of the patience
   * @param failureStreak failures in a row
   * @param pausedUntil the origin is paused until then (epoch ms); 0 when not paused
   */
  public record Snapshot(
      long nextStartAt,
      long backoffMillis,
      long backoffChangedAt,
      int patience,
      int failureStreak,
      long pausedUntil) {

    /**
     * Whether the state says nothing a fresh one would not, as of {@code now}: its delay and pause
     * are over and it has no back-off and no failures.
     */
    public boolean isSpent(long now) {
      return nextStartAt < now && pausedUntil < now && backoffMillis == 0 && failureStreak == 0;
    }

    /**
     * Whether a state taken over for an origin that never came is no longer worth keeping: its
     * delay and pause are over and its back-off has not changed for eight quiet periods (by then it
     * would have decayed away).
     */
    public boolean isStale(long now, long quietMillis) {
      return nextStartAt < now && pausedUntil < now && backoffChangedAt < now - quietMillis * 8;
    }
  }

  /** A delay and whether robots.txt's Crawl-delay was capped to reach it. */
  public record Delay(long millis, boolean isCapped) {}

  private final long quietMillis;
  private FetchOptions options;
  private long crawlDelayMillis = -1;
  private long backoffMillis;
  private long backoffChangedAt;
  private int patience;
  private int failureStreak;
  private long pausedUntil;
  private long notBefore;
  private long lastEndedAt = Long.MIN_VALUE;
  private int inFlight;

  /**
   * @param options the origin's options until a request brings others
   * @param quietMillis how long without rate limits or failures before the back-off is halved
   */
  public OriginPoliteness(FetchOptions options, long quietMillis) {
    this.options = options;
    this.quietMillis = quietMillis;
    this.patience = options.patience();
  }

  /**
   * The delay that applies: the option's, raised to the Crawl-delay (capped at {@code
   * maxCrawlDelay}), raised to the back-off.
   */
  public static Delay resolve(
      long optionMillis, long crawlDelayMillis, long maxCrawlDelayMillis, long backoffMillis) {
    boolean isCapped = crawlDelayMillis > maxCrawlDelayMillis;
    long crawlDelay = Math.min(crawlDelayMillis, maxCrawlDelayMillis);
    return new Delay(Math.max(Math.max(optionMillis, crawlDelay), backoffMillis), isCapped);
  }

  /** The options of the request about to start: they apply from now on. */
  public void options(FetchOptions options) {
    if (this.options.patience() != options.patience()) {
      patience = Math.min(patience, options.patience());
    }
    this.options = options;
  }

  public FetchOptions options() {
    return options;
  }

  /** Sets robots.txt's Crawl-delay (ms; empty when it sets none); returns the delay in force. */
  public Delay crawlDelay(OptionalLong millis) {
    crawlDelayMillis = millis.orElse(-1);
    return delay();
  }

  /** The delay in force. */
  public Delay delay() {
    return resolve(
        options.delayMillis(), crawlDelayMillis, options.maxCrawlDelayMillis(), backoffMillis);
  }

  /** When the next request may start (epoch ms); {@link Long#MIN_VALUE} when at once. */
  public long nextStartAt() {
    long afterLast =
        lastEndedAt == Long.MIN_VALUE ? Long.MIN_VALUE : lastEndedAt + delay().millis();
    return Math.max(afterLast, notBefore);
  }

  /** Whether a request may start now: a connection free, the delay over, not paused. */
  public boolean isReady(long now) {
    return inFlight < options.maxConnections() && now >= nextStartAt() && !isPaused(now);
  }

  public boolean isPaused(long now) {
    return now < pausedUntil;
  }

  public long pausedUntil() {
    return pausedUntil;
  }

  public boolean isBusy() {
    return inFlight > 0;
  }

  public int inFlight() {
    return inFlight;
  }

  public int patience() {
    return patience;
  }

  public long backoffMillis() {
    return backoffMillis;
  }

  /** A request to the origin starts. */
  public void started() {
    inFlight++;
  }

  /**
   * A request to the origin ended at {@code now}: the back-off, the patience and the pause follow
   * what it said. A rate limit raises the delay (to Retry-After when the server names it, else
   * doubled) up to the cap and is no failure; a failure that looks persistent lowers the patience,
   * and at 0 the origin is paused for the pause option and the patience is full again for
   * afterwards; an answer restores the patience and, after a quiet period, halves the back-off.
   */
  public Change ended(long now, Feedback feedback) {
    inFlight--;
    lastEndedAt = now;
    if (feedback.kind() == Feedback.Kind.RATE_LIMITED) {
      OptionalLong retryAfter = feedback.retryAfterMillis();
      long raised =
          retryAfter.isPresent()
              ? retryAfter.getAsLong()
              : Math.max(MIN_BACKOFF_MILLIS, delay().millis() * 2);
      backoffMillis = Math.min(options.maxBackoffMillis(), Math.max(backoffMillis, raised));
      backoffChangedAt = now;
      if (retryAfter.isPresent()) {
        notBefore =
            Math.max(notBefore, now + Math.min(retryAfter.getAsLong(), options.maxBackoffMillis()));
      }
      return Change.BACKED_OFF;
    }
    if (!feedback.isFailure()) {
      failureStreak = 0;
      patience = options.patience();
      decay(now);
      return Change.NONE;
    }
    boolean looksPersistent = feedback.isPersistentAtOnce() || failureStreak > 0;
    failureStreak++;
    backoffMillis =
        Math.min(
            options.maxBackoffMillis(),
            Math.max(MIN_BACKOFF_MILLIS, Math.max(backoffMillis * 2, options.delayMillis())));
    backoffChangedAt = now;
    if (looksPersistent && --patience <= 0) {
      pausedUntil = now + options.pauseMillis();
      patience = options.patience();
      failureStreak = 0;
      return Change.PAUSED;
    }
    return Change.BACKED_OFF;
  }

  /** Halves the back-off once per quiet period without rate limits or failures, down to none. */
  private void decay(long now) {
    if (backoffMillis > 0 && now - backoffChangedAt >= quietMillis) {
      backoffMillis /= 2;
      if (backoffMillis < MIN_BACKOFF_MILLIS || backoffMillis <= options.delayMillis()) {
        backoffMillis = 0;
      }
      backoffChangedAt = now;
    }
  }

  /** The state for the origin's next owner, as of {@code now}. */
  public Snapshot snapshot(long now) {
    long next = nextStartAt();
    if (inFlight > 0) {
      next =
          Math.max(
              next, now + delay().millis()); // a request is still running: its end is not known yet
    }
    return new Snapshot(
        next, backoffMillis, backoffChangedAt, patience, failureStreak, pausedUntil);
  }

  /** Goes on from a previous owner's state. */
  public void restore(Snapshot snapshot) {
    notBefore = Math.max(notBefore, snapshot.nextStartAt());
    backoffMillis = snapshot.backoffMillis();
    backoffChangedAt = snapshot.backoffChangedAt();
    patience = Math.max(1, Math.min(snapshot.patience(), options.patience()));
    failureStreak = snapshot.failureStreak();
    pausedUntil = snapshot.pausedUntil();
  }

  /** Whether the state says nothing a fresh one would not: nothing to hand over. */
  public boolean isDefault(long now) {
    return inFlight == 0
        && now >= nextStartAt()
        && backoffMillis == 0
        && patience == options.patience()
        && failureStreak == 0
        && !isPaused(now);
  }

  /**
   * Whether the state must reach the origin's next owner even if this fetcher crashes now: the
   * origin is paused, backed off, has lost patience, or its next request is further away than
   * {@value #SIGNIFICANT_WAIT_MILLIS} ms. Other changes are shared only at the origin's hand-over.
   */
  public boolean isWorthSharing(long now) {
    Snapshot snapshot = snapshot(now);
    return isPaused(now)
        || snapshot.backoffMillis() > 0
        || snapshot.patience() < options.patience()
        || snapshot.nextStartAt() - now > SIGNIFICANT_WAIT_MILLIS;
  }
}
