package dev.crawler.common.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CrawlLogTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CrawlLog log = new CrawlLog("parser", registry);

  private double count(Outcome outcome) {
    Counter counter =
        registry
            .find("crawler.outcomes")
            .tags("service", "parser", "outcome", outcome.name())
            .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void writesTheDecisionsEntryAndCountsItByOutcomeInTheRegistryItWasGiven() {
    Instant now = Instant.parse("2026-11-24T00:00:00Z");

    CrawlLogEntry entry =
        log.entry(Decision.of("https://a.example/x", Outcome.NOT_FOUND, "404"), now);
    log.entry(Decision.of("https://a.example/y", Outcome.NOT_FOUND, "404"), now);
    log.entry(Decision.of("https://a.example/z", Outcome.COMMITTED, null), now);

    assertThat(entry)
        .isEqualTo(
            Decision.of("https://a.example/x", Outcome.NOT_FOUND, "404").toLogEntry("parser", now));
    assertThat(count(Outcome.NOT_FOUND)).isEqualTo(2);
    assertThat(count(Outcome.COMMITTED)).isEqualTo(1);
    assertThat(count(Outcome.GONE)).isZero();
  }

  @Test
  void aDecisionMadeIntoAnEntryWithoutTheLogIsNotCounted() {
    Decision.of("https://a.example/x", Outcome.GONE, null).toLogEntry("parser", Instant.EPOCH);

    assertThat(registry.find("crawler.outcomes").counters()).isEmpty();
  }
}
