package dev.crawler.common.ops;

import dev.crawler.events.DocumentEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters every service shares, registered in Micrometer's global registry ({@link
 * Metrics#globalRegistry}), to which a service's main adds its Prometheus registry: document events
 * and dead letters ({@code crawler_dead_letters_total{service}}); decisions by outcome are counted
 * by each service's {@link dev.crawler.common.decision.CrawlLog} in the registry its wiring gives
 * it (this one). Without a registry added they count nothing. Thread-safe.
 */
public final class CrawlMetrics {

  /**
   * Upserts under their type, deletions under their reason (two enums: no key is made per event).
   */
  private static final Map<Object, Counter> DOCUMENTS = new ConcurrentHashMap<>();

  private static final Map<String, Counter> DEAD_LETTERS = new ConcurrentHashMap<>();

  private CrawlMetrics() {}

  /** The registry services instrument themselves in. */
  public static MeterRegistry registry() {
    return Metrics.globalRegistry;
  }

  /**
   * Counts one document event the committer published ({@code crawler_documents_total{type,
   * reason}}): an upsert, or a deletion with its reason.
   */
  public static void document(DocumentEvent event) {
    Object key = event.getDeleteReason() == null ? event.getType() : event.getDeleteReason();
    DOCUMENTS
        .computeIfAbsent(
            key,
            k -> {
              String reason = event.getDeleteReason() == null ? "" : event.getDeleteReason().name();
              return Counter.builder("crawler.documents")
                  .description("Document events published: upserts, and deletions by reason")
                  .tag("type", event.getType().name())
                  .tag("reason", reason)
                  .register(registry());
            })
        .increment();
  }

  /** Counts one record a service sent to the dead-letter topic. */
  public static void deadLetter(String service) {
    DEAD_LETTERS
        .computeIfAbsent(
            service,
            s ->
                Counter.builder("crawler.dead.letters")
                    .description("Records sent to the dead-letter topic")
                    .tag("service", s)
                    .register(registry()))
        .increment();
  }
}
