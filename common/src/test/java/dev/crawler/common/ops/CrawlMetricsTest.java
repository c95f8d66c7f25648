package dev.crawler.common.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.DeleteReason;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CrawlMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void addRegistry() {
    Metrics.addRegistry(registry);
  }

  @AfterEach
  void removeRegistry() {
    Metrics.removeRegistry(registry);
  }

  @Test
  void countsUpsertsAndDeletionsByReason() {
    double upserts = count("crawler.documents", "type", "UPSERT", "reason", "");
    double gone = count("crawler.documents", "type", "DELETE", "reason", "GONE");
    CrawlMetrics.document(
        DocumentEvent.newBuilder()
            .setType(DocumentEventType.UPSERT)
            .setUrl("https://a.example/")
            .build());
    CrawlMetrics.document(
        DocumentEvent.newBuilder()
            .setType(DocumentEventType.DELETE)
            .setUrl("https://a.example/x")
            .setDeleteReason(DeleteReason.GONE)
            .build());

    assertThat(count("crawler.documents", "type", "UPSERT", "reason", "") - upserts).isEqualTo(1);
    assertThat(count("crawler.documents", "type", "DELETE", "reason", "GONE") - gone).isEqualTo(1);
  }

  private double count(String name, String... tags) {
    var counter = registry.find(name).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }
}
