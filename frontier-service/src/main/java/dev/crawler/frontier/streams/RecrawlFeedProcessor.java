package dev.crawler.frontier.streams;

import dev.crawler.common.streams.QuietCommit;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.RecrawlDocument;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.Site;
import dev.crawler.schemas.TopicSpec;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;

/**
 * Turns the committer's document events ({@code crawl.documents}, any partition) into the recrawl
 * scheduler's feed ({@code crawl.recrawl-feed}, one partition): for a document of a configured
 * site, its pages and publish date on an upsert, a tombstone on a deletion. Documents of no site
 * are not recrawled by events and are left out undecoded: every page of a crawl crosses this
 * processor with its text, and most crawls configure no site. A value of a configured site that
 * cannot be decoded fails the record, which goes to the dead letters. Stateless.
 */
final class RecrawlFeedProcessor implements Processor<String, byte[], String, RecrawlDocument> {

  private final CrawlConfig config;
  private final String topic;
  private final Deserializer<DocumentEvent> decoder;
  private @Nullable ProcessorContext<String, RecrawlDocument> context;
  private QuietCommit quiet = QuietCommit.NEVER;

  /**
   * @param documents the topic read, whose value serde decodes the documents of configured sites
   */
  RecrawlFeedProcessor(CrawlConfig config, TopicSpec<String, DocumentEvent> documents) {
    this.config = config;
    this.topic = documents.name();
    this.decoder = documents.valueSerde().deserializer();
  }

  @Override
  public void init(ProcessorContext<String, RecrawlDocument> context) {
    this.context = context;
    this.quiet = QuietCommit.of(context);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    quiet.processed();
    if (record.value() == null || record.key() == null) {
      return; // the tombstone after a deletion: the deletion itself was passed on
    }
    Optional<Site> site = config.siteOf(record.key());
    if (site.isEmpty()) {
      return;
    }
    DocumentEvent event = decoder.deserialize(topic, record.value());
    if (event == null) {
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
            record.<RecrawlDocument>withValue(
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
