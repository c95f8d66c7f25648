package dev.crawler.common.decision;

import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.Outcome;
import dev.crawler.schemas.options.RequestOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A service's crawl log as the code that decides writes it: each {@link Decision} becomes one
 * {@code crawl.log} entry and is counted by outcome on the way ({@code
 * crawler_outcomes_total{service, outcome}}) in the registry it was given. The service's wiring
 * passes the registry in; a test passes its own and reads the counts. Thread-safe.
 */
public final class CrawlLog {

  private final String service;
  private final MeterRegistry registry;

  /** The counters by outcome ordinal: found without allocating, as every decision counts. */
  private final AtomicReferenceArray<Counter> counters =
      new AtomicReferenceArray<>(Outcome.values().length);

  public CrawlLog(String service, MeterRegistry registry) {
    this.service = service;
    this.registry = registry;
  }

  /** The {@code crawl.log} entry of a decision made at {@code time}, counted by its outcome. */
  public CrawlLogEntry entry(Decision decision, Instant time) {
    count(decision.outcome());
    return decision.toLogEntry(service, time);
  }

  /**
   * The entry of a decision about a fetch request's URL, naming the version of the crawl
   * configuration that released it (its {@code config-version} option), when it names one.
   */
  public CrawlLogEntry entry(Decision decision, Instant time, Map<String, String> requestOptions) {
    CrawlLogEntry entry = entry(decision, time);
    String version = RequestOptions.CONFIG_VERSION.readFrom(requestOptions);
    if (!version.isEmpty()) {
      entry.setConfigVersion(version);
    }
    return entry;
  }

  private void count(Outcome outcome) {
    Counter counter = counters.get(outcome.ordinal());
    if (counter == null) {
      // two threads may both register it: the registry answers both with the same counter
      counter =
          Counter.builder("crawler.outcomes")
              .description("Decisions about URLs, by outcome (one per crawl-log entry)")
              .tag("service", service)
              .tag("outcome", outcome.name())
              .register(registry);
      counters.set(outcome.ordinal(), counter);
    }
    counter.increment();
  }
}
