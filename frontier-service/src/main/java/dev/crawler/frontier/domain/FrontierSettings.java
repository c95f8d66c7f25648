package dev.crawler.frontier.domain;

import dev.crawler.events.Outcome;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import java.time.Duration;
import java.util.List;

/**
 * The frontier's decisions' parameters.
 *
 * @param crawl the crawl configuration: options, sites and rules deciding every discovered URL
 * @param seeds the crawl's seeds besides the configuration's sites' (for the host, domain and
 *     directory scopes)
 * @param maxPages fetch requests this frontier instance releases at most; 0 for no limit
 * @param windowPerOrigin requests in flight per origin at most; 0 to derive it from the delay
 *     ({@link #window()})
 * @param leaseTimeout how long a released request waits for its outcome before it is released again
 * @param maxAttempts fetch attempts per URL for outcomes that are retried ({@link
 *     #isRetried(Outcome, int)})
 */
public record FrontierSettings(
    CrawlConfig crawl,
    List<String> seeds,
    long maxPages,
    int windowPerOrigin,
    Duration leaseTimeout,
    int maxAttempts) {

  /** The same settings with another crawl configuration (an operator applied it). */
  public FrontierSettings withCrawl(CrawlConfig other) {
    return other == crawl
        ? this
        : new FrontierSettings(other, seeds, maxPages, windowPerOrigin, leaseTimeout, maxAttempts);
  }

  /** The global politeness delay between two requests to one origin, which sizes the window. */
  public long delayMillis() {
    return crawl.globalValue(CrawlOption.DELAY_MS);
  }

  /**
   * How long one URL takes from release to outcome through the services, roughly, in milliseconds.
   */
  static final long PIPELINE_LATENCY_MILLIS = 2_000;

  static final int MIN_WINDOW = 2;
  static final int MAX_WINDOW = 1024;

  /**
   * Requests in flight per origin at most. Unless configured, enough to keep an origin busy at its
   * delay while outcomes make their way back ({@value #PIPELINE_LATENCY_MILLIS} ms), between
   * {@value #MIN_WINDOW} and {@value #MAX_WINDOW}: 2 at a delay of one second, 1024 at no delay.
   * The window is what keeps one slow origin from filling a partition: the others' requests are
   * released beside it. An origin answering in a millisecond at no delay needs that many: the bench
   * site's 20 origins at a cap of 64 crawled 700-740 pages per second, at 256 815 with the same
   * CPU; a documentation site crawled mostly one origin at a time went at one window per round trip
   * (~1 s), 256 pages per second, and at 1024 at what the CPU allows (the fetcher still holds at
   * most {@code fetcher.max.pending.requests}, and answers those it held too long DEFERRED).
   */
  public int window() {
    return window(delayMillis());
  }

  /**
   * The window of an origin whose fetcher reports this delay (its option raised by Crawl-delay or
   * back-off): a slow origin gets a small window, so the fetcher never holds many of its requests
   * waiting longer than their leases.
   */
  public int window(long originDelayMillis) {
    if (windowPerOrigin > 0) {
      return windowPerOrigin;
    }
    long delay = Math.max(originDelayMillis < 0 ? delayMillis() : originDelayMillis, 1);
    long needed = (PIPELINE_LATENCY_MILLIS + delay - 1) / delay;
    return (int) Math.max(MIN_WINDOW, Math.min(MAX_WINDOW, needed));
  }

  /**
   * Whether an outcome (after the retries) puts the URL in the error state: blacklisted, so later
   * discoveries are {@code BLACKLISTED} until an operator clears the errors (pending file, state
   * 2).
   */
  public static boolean isError(Outcome outcome) {
    switch (outcome) {
      case NOT_FOUND:
      case GONE:
      case BAD_STATUS:
      case NETWORK_ERROR:
      case RATE_LIMITED:
      case TOO_LARGE:
      case ADDRESS_DENIED: // a name may resolve elsewhere later, or its range be allowed
      case ACCESS_FAILED: // a secret or a login to fix, then errors cleared
      case RENDER_TIMEOUT: // a page that never settles, or a browser that does not answer
      case RENDER_FAILED:
      case ERROR:
        return true;
      default:
        return false;
    }
  }

  /**
   * Whether a URL whose fetch ended with this outcome is queued again: transient failures (a
   * network error, a rate limit; transient-error retry) until {@code maxAttempts} attempts were
   * made.
   */
  public boolean isRetried(Outcome outcome, int attempt) {
    boolean isTransient = outcome == Outcome.NETWORK_ERROR || outcome == Outcome.RATE_LIMITED;
    return isTransient && attempt < maxAttempts;
  }
}
