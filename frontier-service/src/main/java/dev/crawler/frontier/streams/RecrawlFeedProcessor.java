package dev.crawler.frontier.streams;

import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.RecrawlDocument;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.Site;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;

/**
 * Turns the committer's document events ({@code crawl.documents}, any partition) into the recrawl
 * scheduler's feed ({@code crawl.recrawl-feed}, one partition): for a document of a configured
 * site, its pages and publish date on an upsert, a tombstone on a deletion. Documents of no site
 * are not recrawled by events and are left out. Stateless.
 */
final class RecrawlFeedProcessor
    implements Processor<String, DocumentEvent, String, RecrawlDocument> {

  private final CrawlConfig config;
  private @Nullable ProcessorContext<String, RecrawlDocument> context;

  RecrawlFeedProcessor(CrawlConfig config) {
    this.config = config;
  }

  @Override
  public void init(ProcessorContext<String, RecrawlDocument> context) {
    this.context = context;
  }

  @Override
  public void process(Record<String, DocumentEvent> record) {
    DocumentEvent event = record.value();
    if (event == null || record.key() == null) {
      return; // the tombstone after a deletion: the deletion itself was passed on
    }
    Optional<Site> site = config.siteOf(record.key());
    if (site.isEmpty()) {
      return;
    }
    Document document = event.getDocument();
    if (event.getType() == DocumentEventType.DELETE || document == null) {
      context().forward(record.withValue(null));
      return;
    }
    List<String> pages =
        document.getPages().isEmpty() ? List.of(document.getUrl()) : document.getPages();
    Instant publishedAt =
        document.getPublishedAt() != null ? document.getPublishedAt() : document.getFirstSeenAt();
    context()
        .forward(
            record.withValue(
                RecrawlDocument.newBuilder()
                    .setUrl(record.key())
                    .setSite(site.get().name())
                    .setPages(pages)
                    .setPublishedAt(publishedAt)
                    .build()));
  }

  private ProcessorContext<String, RecrawlDocument> context() {
    return Objects.requireNonNull(context, "not initialized");
  }
}
