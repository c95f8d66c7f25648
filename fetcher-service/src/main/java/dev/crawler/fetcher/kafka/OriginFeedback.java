package dev.crawler.fetcher.kafka;

import dev.crawler.fetcher.domain.Feedback;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OriginPoliteness;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells each origin's politeness how its requests ended ({@link Feedback}), and logs and counts
 * what that changed: a longer delay, or a pause when the origin's patience ran out. Owned by the
 * fetch loop's thread.
 */
final class OriginFeedback {

  private static final Logger LOG = LoggerFactory.getLogger(OriginFeedback.class);

  private final Origins origins;
  private final FetcherMetrics metrics;

  OriginFeedback(Origins origins, FetcherMetrics metrics) {
    this.origins = origins;
    this.metrics = metrics;
  }

  /**
   * Tells the origin's politeness that a request ended by the clock's {@code now}, with what it
   * gave; returns what that says about the origin.
   */
  Feedback ended(HostQueue<Pending> host, FetchAttempt attempt, long now) {
    Feedback feedback = Feedback.of(attempt, Instant.ofEpochMilli(now));
    OriginPoliteness politeness = host.politeness();
    switch (politeness.ended(endedAt(now), feedback)) {
      case PAUSED -> {
        metrics.paused();
        origins.paused(host);
        LOG.warn(
            "{}: patience ran out ({}); paused until {}, its URLs stay queued in the frontier",
            host.origin(),
            describe(attempt),
            Instant.ofEpochMilli(politeness.pausedUntil()));
      }
      case BACKED_OFF -> {
        metrics.backedOff();
        LOG.info(
            "{}: {}; delay now {} ms, patience {}",
            host.origin(),
            describe(attempt),
            politeness.delay().millis(),
            politeness.patience());
      }
      case NONE -> {}
    }
    return feedback;
  }

  /** What an attempt gave, in a few words: its status, or why it failed. */
  static String describe(FetchAttempt attempt) {
    return attempt instanceof FetchAttempt.Response response
        ? "status " + response.status()
        : ((FetchAttempt.Failure) attempt).detail();
  }

  /**
   * When a request that ended by the clock's {@code now} counts as ended for the delay: the clock
   * counts whole milliseconds, so the end is taken as the next one, and the delay after it is never
   * cut short by the fraction of a millisecond that {@code now} dropped.
   */
  private static long endedAt(long now) {
    return now + 1;
  }
}
