package dev.crawler.parser.kafka;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.kafka.ConsumerLoop;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.parser.domain.FileImport;
import dev.crawler.parser.domain.FileImporter;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.RecentLinks;
import dev.crawler.parser.streams.ParserOutputs;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KeyValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports the files the parser's topology set aside on {@code crawl.imports} (PDF, office
 * documents), exactly once, without holding a transaction open while a file is read.
 *
 * <p>Importing a file may take seconds (up to {@code parser.import.timeout.ms}); a Kafka Streams
 * transaction that waited for it would outlive its timeout, and every page behind the file would
 * wait too. So the loop reads a few records at a time ({@code max.poll.records}, one per import
 * process), imports them side by side with no transaction open, and only then writes what they gave
 * — the parsed documents, the outcomes and log entries of the files refused, the links for the
 * frontier, the dead letters of records that cannot be read — and the records' offsets in one
 * transaction, which lasts as long as those writes. A loop that dies or is fenced between the two
 * reads the same records again: nothing is lost, nothing written twice.
 *
 * <p>A file is turned into a document exactly as a page is ({@link ParserOutputs}): same checksums,
 * canonical, robots headers and links. Runs on its own thread ({@link #run()}); {@link #close()}
 * from another. Not otherwise thread-safe.
 */
public final class ImportLoop extends ConsumerLoop {

  private static final Logger LOG = LoggerFactory.getLogger(ImportLoop.class);

  /** The service's name in outcomes, log entries and dead letters. */
  static final String SERVICE = "parser";

  private static final Duration POLL = Duration.ofMillis(500);

  /** Links the loop remembers having sent, so a file's links are not sent again and again. */
  private static final int RECENT_LINKS = 10_000;

  private final Topics topics;
  private final FileImporter importer;
  private final PageParser parser;
  private final CrawlLog log;
  private final InstantSource clock;
  private final ExecutorService workers;
  private final Timer importDuration;
  private final RecentLinks recentLinks =
      new RecentLinks(RECENT_LINKS, RecentLinks.DEFAULT_MAX_AGE_MILLIS);

  /**
   * @param consumer a consumer of its own group, read_committed, without auto commit, reading at
   *     most {@code parallelism} records per poll
   * @param producers makes a transactional producer (again, after one failed for good)
   * @param parallelism files imported at once: the importer's processes
   */
  public ImportLoop(
      Consumer<byte[], byte[]> consumer,
      Supplier<Producer<byte[], byte[]>> producers,
      Topics topics,
      FileImporter importer,
      PageParser parser,
      MeterRegistry registry,
      int parallelism,
      InstantSource clock) {
    super("the file import loop", consumer, producers, POLL);
    this.topics = topics;
    this.importer = importer;
    this.parser = parser;
    this.log = new CrawlLog(SERVICE, registry);
    this.clock = clock;
    this.workers =
        Executors.newFixedThreadPool(
            parallelism,
            runnable -> {
              Thread thread = new Thread(runnable, "file-import");
              thread.setDaemon(true);
              return thread;
            });
    this.importDuration =
        Timer.builder("crawler.import.duration")
            .description("Time to import one file (PDF, office document) in an import process")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(2))
            .register(registry);
  }

  /** Joins the group. */
  @Override
  protected void starting() {
    consumer.subscribe(Set.of(topics.imports().name()));
  }

  @Override
  protected void process(ConsumerRecords<byte[], byte[]> records) {
    if (!records.isEmpty()) {
      importAndCommit(records);
    }
  }

  @Override
  protected void stopped() {
    workers.shutdownNow();
  }

  /**
   * Imports the records' files side by side, then writes their outputs and offsets in one
   * transaction. A write that fails aborts the transaction and reads the records again.
   */
  private void importAndCommit(ConsumerRecords<byte[], byte[]> records) {
    List<Future<List<ProducerRecord<byte[], byte[]>>>> imports = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      imports.add(workers.submit(() -> outputsOf(record)));
    }
    List<ProducerRecord<byte[], byte[]>> outputs = new ArrayList<>();
    try {
      for (Future<List<ProducerRecord<byte[], byte[]>>> imported : imports) {
        outputs.addAll(imported.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      imports.forEach(imported -> imported.cancel(true));
      rewind(); // stopping: these records are read again by whoever takes the partitions
      return;
    } catch (ExecutionException e) {
      // an import interrupted by the stop (the records are read again), or a bug
      imports.forEach(imported -> imported.cancel(true));
      if (!isClosing()) {
        LOG.error("importing files failed; reading them again", e.getCause());
      }
      rewind();
      return;
    }
    if (isClosing()) {
      rewind();
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition partition : records.partitions()) {
      List<ConsumerRecord<byte[], byte[]>> ofPartition = records.records(partition);
      offsets.put(
          partition, new OffsetAndMetadata(ofPartition.get(ofPartition.size() - 1).offset() + 1));
    }
    if (!commit(outputs, offsets)) {
      rewind();
    }
  }

  /** What one record of {@code crawl.imports} gives, serialized for its topics. */
  private List<ProducerRecord<byte[], byte[]>> outputsOf(ConsumerRecord<byte[], byte[]> raw) {
    Instant now = clock.instant();
    String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
    FetchResult result;
    String origin;
    try {
      result = topics.imports().valueSerde().deserializer().deserialize(raw.topic(), raw.value());
      if (result == null) {
        throw new IllegalArgumentException("a record on the imports without a value");
      }
      origin = key != null ? key : Origin.keyOf(result.getUrl());
    } catch (RuntimeException e) {
      LOG.warn(
          "undecodable record at {}-{}@{}: dead letter",
          raw.topic(),
          raw.partition(),
          raw.offset());
      return List.of(topics.deadLetters().serialized(key, DeadLetters.of(raw, e, SERVICE, now)));
    }
    ParserOutputs outputs;
    try {
      outputs = importFile(result);
    } catch (IllegalStateException e) {
      if (Thread.currentThread().isInterrupted() || isClosing()) {
        throw e; // stopping: the file was not judged, and is read again
      }
      LOG.warn("{}: unexpected failure while importing, outcome ERROR", result.getUrl(), e);
      outputs = ParserOutputs.rejected(result, Outcome.ERROR, e.toString());
    } catch (RuntimeException e) {
      LOG.warn("{}: unexpected failure while importing, outcome ERROR", result.getUrl(), e);
      outputs = ParserOutputs.rejected(result, Outcome.ERROR, e.toString());
    }
    return records(origin, outputs, result.getOptions(), now);
  }

  private ParserOutputs importFile(FetchResult result) {
    Page page = ParserOutputs.page(result);
    String mediaType = page.mediaType().orElse("application/octet-stream");
    long startedAt = System.nanoTime();
    FileImport imported = importer.importFile(result.getUrl(), mediaType, page.body());
    importDuration.record(System.nanoTime() - startedAt, TimeUnit.NANOSECONDS);
    ParseOptions options = ParseOptions.of(result.getOptions());
    ParseResult parsed =
        imported instanceof FileImport.Extracted file
            ? parser.parseFile(page, file, options)
            : new ParseResult.Rejected(((FileImport.Failed) imported).detail());
    return ParserOutputs.of(result, page, parsed, options);
  }

  private List<ProducerRecord<byte[], byte[]>> records(
      String origin, ParserOutputs outputs, Map<String, String> options, Instant now) {
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    if (outputs.rejection().isPresent()) {
      Decision decision = outputs.rejection().get();
      records.add(topics.outcomes().serialized(origin, decision.toOutcome(SERVICE, now).build()));
      records.add(topics.log().serialized(origin, log.entry(decision, now, options)));
    }
    for (Decision logged : outputs.logged()) {
      records.add(topics.log().serialized(origin, log.entry(logged, now, options)));
    }
    outputs
        .document()
        .ifPresent(document -> records.add(topics.parsed().serialized(origin, document)));
    for (KeyValue<String, DiscoveredUrl> discovered : outputs.discovered()) {
      boolean isNew;
      synchronized (recentLinks) {
        isNew = recentLinks.isNew(discovered.value.getUrl(), now.toEpochMilli());
      }
      if (isNew) {
        records.add(topics.discovered().serialized(discovered.key, discovered.value));
      }
    }
    return records;
  }

  /** Goes back to the committed offsets, forgetting the links it remembers as sent. */
  @Override
  protected void rewound() {
    synchronized (recentLinks) {
      recentLinks.clear(); // the links it remembers as sent were not written
    }
  }

  /** Stops the loop (it wakes from its poll and finishes nothing more); returns at once. */
  @Override
  public void close() {
    super.close();
    workers.shutdownNow();
  }
}
