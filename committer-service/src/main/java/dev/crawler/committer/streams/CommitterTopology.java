package dev.crawler.committer.streams;

import dev.crawler.committer.domain.CommitterSettings;
import dev.crawler.committer.state.DocumentState;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.streams.Sinks;
import dev.crawler.common.streams.Sources;
import dev.crawler.common.streams.StateStores;
import dev.crawler.events.DocumentPages;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.StateSerde;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The committer as a Kafka Streams topology: one processor reads {@code crawl.parsed} and {@code
 * crawl.outcomes} (co-partitioned by origin) and keeps each URL's {@link DocumentState} in the
 * persistent store {@value #DOCUMENTS_STORE}; it writes {@code crawl.documents} (keyed by URL),
 * {@code crawl.outcomes} and {@code crawl.log}.
 */
public final class CommitterTopology {

  public static final String DOCUMENTS_STORE = "committer-documents";

  /** Content checksum to the URL that publishes it, in this task's partition (seen at once). */
  public static final String CHECKSUMS_STORE = "committer-checksums";

  /**
   * Content checksum to the URL that publishes it, over all partitions (a global store of
   * crawl.checksums).
   */
  public static final String GLOBAL_CHECKSUMS_STORE = "committer-global-checksums";

  /** Multi-page documents: document (first page) URL to its {@link DocumentPages}. */
  public static final String PAGES_STORE = "committer-pages";

  /** Multi-page documents: the URL of each later page to its document's URL. */
  public static final String PAGE_OF_STORE = "committer-page-of";

  static final String PARSED_SOURCE = "parsed";
  static final String OUTCOMES_SOURCE = "outcomes";
  static final String PROCESSOR = "committer";
  static final String DOCUMENTS_SINK = "documents";
  static final String CHUNKS_SINK = "chunks";
  static final String OUTCOMES_SINK = "outcomes-out";
  static final String LOG_SINK = "log";
  static final String CHECKSUMS_SINK = "checksums-out";

  private CommitterTopology() {}

  /**
   * The committer's topology.
   *
   * @param registry where the crawl-log counts go
   */
  public static Topology build(Topics topics, CommitterSettings settings, MeterRegistry registry) {
    Topology topology = new Topology();
    Sources.add(topology, PARSED_SOURCE, topics.parsed());
    Sources.add(topology, OUTCOMES_SOURCE, topics.outcomes());
    CrawlLog log = new CrawlLog(CommitterProcessor.SERVICE, registry);
    topology.addProcessor(
        PROCESSOR, () -> new CommitterProcessor(settings, log), PARSED_SOURCE, OUTCOMES_SOURCE);
    // keyed by URL or checksum, each written about once per fetch: a record cache would only cost
    StateStores.addUncached(
        topology, DOCUMENTS_STORE, Serdes.String(), StateSerde.of(DocumentState.class), PROCESSOR);
    StateStores.addUncached(topology, CHECKSUMS_STORE, Serdes.String(), Serdes.String(), PROCESSOR);
    StateStores.addUncached(
        topology, PAGES_STORE, Serdes.String(), StateSerde.of(DocumentPages.class), PROCESSOR);
    StateStores.addUncached(topology, PAGE_OF_STORE, Serdes.String(), Serdes.String(), PROCESSOR);
    Sinks.add(topology, DOCUMENTS_SINK, topics.documents(), PROCESSOR);
    Sinks.add(topology, CHUNKS_SINK, topics.chunks(), PROCESSOR);
    Sinks.add(topology, OUTCOMES_SINK, topics.outcomes(), PROCESSOR);
    Sinks.add(topology, LOG_SINK, topics.log(), PROCESSOR);
    Sinks.add(topology, CHECKSUMS_SINK, topics.checksums(), PROCESSOR);
    topology.addGlobalStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(GLOBAL_CHECKSUMS_STORE),
                Serdes.String(),
                Serdes.String())
            .withLoggingDisabled(),
        "checksums",
        Serdes.String().deserializer(),
        Serdes.String().deserializer(),
        topics.checksums().name(),
        "checksums-updater",
        ChecksumIndexUpdater::new);
    return topology;
  }
}
