package dev.crawler.fetcher.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The fetcher's meters: fetch latency and size histograms, how long requests wait for their
 * origin's politeness, robots.txt fetches, back-offs and pauses, and gauges of the loop's load.
 * Counters and timers are thread-safe; the gauges' values are written by the fetch loop's thread
 * and read by the scraping thread.
 */
final class FetcherMetrics {

  private final Timer fetchDuration;
  private final DistributionSummary fetchSize;
  private final Timer politenessWait;
  private final Counter robotsRead;
  private final Counter robotsUnavailable;
  private final Counter rateLimited;
  private final Counter backoffs;
  private final Counter pauses;
  private volatile int inFlight;
  private volatile int held;
  private volatile int origins;
  private volatile int pausedOrigins;

  FetcherMetrics(MeterRegistry registry) {
    this.fetchDuration =
        Timer.builder("crawler.fetch.duration")
            .description(
                "Time from sending a page's request to its last byte (redirects of robots.txt included)")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(60))
            .register(registry);
    this.fetchSize =
        DistributionSummary.builder("crawler.fetch.size")
            .description("Body size of fetched pages")
            .baseUnit("bytes")
            .publishPercentileHistogram()
            .minimumExpectedValue(128.0)
            .maximumExpectedValue(64.0 * 1024 * 1024)
            .register(registry);
    this.politenessWait =
        Timer.builder("crawler.politeness.wait")
            .description(
                "Time a request waited in its origin's queue before it started (delay, Crawl-delay, back-off, robots.txt)")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(10))
            .register(registry);
    this.robotsRead =
        Counter.builder("crawler.robots.fetches")
            .description("robots.txt fetches")
            .tag("result", "read")
            .register(registry);
    this.robotsUnavailable =
        Counter.builder("crawler.robots.fetches")
            .description("robots.txt fetches")
            .tag("result", "unavailable")
            .register(registry);
    this.rateLimited =
        Counter.builder("crawler.rate.limited")
            .description("Answers 429, or 503 with Retry-After")
            .register(registry);
    this.backoffs =
        Counter.builder("crawler.backoffs")
            .description("Times an origin's delay was raised (rate limit or failures)")
            .register(registry);
    this.pauses =
        Counter.builder("crawler.pauses")
            .description("Times an origin was paused because its patience ran out")
            .register(registry);
    Gauge.builder("crawler.fetcher.in.flight", this, m -> m.inFlight)
        .description("HTTP requests running")
        .register(registry);
    Gauge.builder("crawler.fetcher.held", this, m -> m.held)
        .description("Fetch requests waiting in the origins' queues")
        .register(registry);
    Gauge.builder("crawler.fetcher.origins", this, m -> m.origins)
        .description("Origins with a queue in this fetcher")
        .register(registry);
    Gauge.builder("crawler.fetcher.origins.paused", this, m -> m.pausedOrigins)
        .description("Origins paused (patience ran out)")
        .register(registry);
  }

  void fetched(long durationMillis, int bytes) {
    fetchDuration.record(durationMillis, TimeUnit.MILLISECONDS);
    fetchSize.record(bytes);
  }

  void failed(long durationMillis) {
    fetchDuration.record(durationMillis, TimeUnit.MILLISECONDS);
  }

  void waited(long millis) {
    politenessWait.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
  }

  void robots(boolean isReadable) {
    (isReadable ? robotsRead : robotsUnavailable).increment();
  }

  void rateLimited() {
    rateLimited.increment();
  }

  void backedOff() {
    backoffs.increment();
  }

  void paused() {
    pauses.increment();
  }

  void load(int inFlight, int held, int origins, int pausedOrigins) {
    this.inFlight = inFlight;
    this.held = held;
    this.origins = origins;
    this.pausedOrigins = pausedOrigins;
  }
}
