package dev.crawler.cli.crawl;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.events.ChunkEvent;
import dev.crawler.events.ChunkEventType;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.Outcome;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.AvroSerde;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows {@code crawl.log} and {@code crawl.documents} from the offsets they had when the crawl
 * started: counts outcomes and fetched pages for the progress line and the summary, and writes each
 * event as one JSON line to the {@code --crawl-log} and {@code --out} files. Runs on a thread of
 * its own.
 */
final class CrawlEvents implements Runnable, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CrawlEvents.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  /** Outcomes that say nothing was requested from the site, or that restate another service's. */
  private static final List<Outcome> NOT_FETCHED =
      List.of(
          Outcome.BLOCKED_BY_ROBOTS_TXT,
          Outcome.OUT_OF_SCOPE,
          Outcome.TOO_DEEP,
          Outcome.FILTERED,
          Outcome.PREMATURE,
          Outcome.BLACKLISTED,
          Outcome.DEFERRED,
          Outcome.ACCESS_FAILED,
          Outcome.ORPHAN);

  private static final Set<Outcome> COMMITTER_DECISIONS =
      EnumSet.of(
          Outcome.COMMITTED,
          Outcome.UNMODIFIED,
          Outcome.DUPLICATE,
          Outcome.NOINDEX,
          Outcome.NONCANONICAL);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Topics topics;
  private final RecordDecoder<String, CrawlLogEntry> logDecoder;
  private final AvroSerde<DocumentEvent> documents;
  private final @Nullable OutputStream logFile;
  private final @Nullable OutputStream documentFile;
  private final @Nullable OutputStream chunkFile;
  private final RecordDecoder<String, ChunkEvent> chunkDecoder;
  private final AtomicLong chunks = new AtomicLong();
  private final Map<Outcome, AtomicLong> outcomes = new EnumMap<>(Outcome.class);
  private final AtomicLong fetched = new AtomicLong();
  private final AtomicLong upserts = new AtomicLong();
  private final AtomicLong deletes = new AtomicLong();
  private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile boolean stopped;

  CrawlEvents(
      Map<String, Object> kafka, Topics topics, Optional<Path> logPath, Optional<Path> documentPath)
      throws IOException {
    this(kafka, topics, logPath, documentPath, Optional.empty());
  }

  /**
   * @param chunkPath where the chunk events go ({@code --chunks}), one JSON object per line
   */
  CrawlEvents(
      Map<String, Object> kafka,
      Topics topics,
      Optional<Path> logPath,
      Optional<Path> documentPath,
      Optional<Path> chunkPath)
      throws IOException {
    this.consumer =
        ClientSettings.rawConsumer(ClientSettings.of(kafka).reader("crawler-crawl-events"));
    this.topics = topics;
    this.logDecoder = new RecordDecoder<>(topics.log());
    if (!(topics.documents().valueSerde() instanceof AvroSerde<DocumentEvent> avro)) {
      throw new IllegalStateException("documents are not Avro: " + topics.documents());
    }
    this.documents = avro;
    this.logFile = logPath.isPresent() ? open(logPath.get()) : null;
    this.documentFile = documentPath.isPresent() ? open(documentPath.get()) : null;
    this.chunkFile = chunkPath.isPresent() ? open(chunkPath.get()) : null;
    this.chunkDecoder = new RecordDecoder<>(topics.chunks());
    for (Outcome outcome : Outcome.values()) {
      outcomes.put(outcome, new AtomicLong());
    }
    List<TopicPartition> partitions = new ArrayList<>();
    List<String> followed =
        new ArrayList<>(List.of(topics.log().name(), topics.documents().name()));
    if (chunkFile != null) {
      followed.add(topics.chunks().name());
    }
    for (String topic : followed) {
      consumer
          .partitionsFor(topic)
          .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
    }
    consumer.assign(partitions);
    // this run's events only: a resumed crawl's earlier events are not counted again
    consumer.seekToEnd(partitions);
    partitions.forEach(partition -> positions.put(partition, consumer.position(partition)));
  }

  @Override
  public void run() {
    try {
      while (!stopped) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          accept(record);
        }
        consumer
            .assignment()
            .forEach(partition -> positions.put(partition, consumer.position(partition)));
        flush();
        synchronized (positions) {
          positions.notifyAll();
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      LOG.error("stopped following the crawl's events", e);
    } finally {
      // no group to leave and no offset to commit: not the half second a courteous close waits
      // for the broker to answer its last fetch
      consumer.close(CloseOptions.timeout(Duration.ZERO));
      closeFiles();
      finished.countDown();
    }
  }

  private void accept(ConsumerRecord<byte[], byte[]> raw) {
    try {
      if (raw.topic().equals(topics.chunks().name())) {
        onChunk(chunkDecoder.decode(raw));
      } else if (raw.topic().equals(topics.log().name())) {
        CrawlLogEntry entry = logDecoder.decode(raw).value();
        if (entry != null) {
          onLogEntry(entry);
        }
      } else {
        GenericRecord event;
        try {
          event = documents.deserializeUtf8(raw.topic(), raw.value());
        } catch (UndecodableRecordException e) {
          throw e.at(raw.partition(), raw.offset());
        }
        if (event != null) {
          onDocument(event);
        }
      }
    } catch (UndecodableRecordException e) {
      LOG.warn("skipping an event: {}", e.getMessage());
    }
  }

  private void onLogEntry(CrawlLogEntry entry) {
    if (entry.getOutcome() == Outcome.OPERATOR) {
      // an operator's command and its acknowledgements: not a URL's outcome
      if (logFile != null) {
        Map<String, Object> line = logLine(entry);
        line.put("rule", entry.getRule());
        write(logFile, line);
      }
      return;
    }
    // the committer logs what another service's outcome did to a document (a deletion, a kept
    // failure): that outcome was counted already
    boolean isDeletion =
        "committer".equals(entry.getService()) && !COMMITTER_DECISIONS.contains(entry.getOutcome());
    if (!isDeletion) {
      outcomes.get(entry.getOutcome()).incrementAndGet();
      if (!NOT_FETCHED.contains(entry.getOutcome())) {
        fetched.incrementAndGet();
      }
    }
    if (logFile != null) {
      Map<String, Object> line = logLine(entry);
      line.put("depth", entry.getDepth());
      line.put("status", entry.getStatus());
      line.put("rule", entry.getRule());
      line.put("sourceUrl", entry.getSourceUrl());
      if (entry.getConfigVersion() != null) {
        line.put("configVersion", entry.getConfigVersion());
      }
      write(logFile, line);
    }
  }

  /** The fields every line of {@code --crawl-log} has, in their order. */
  private static Map<String, Object> logLine(CrawlLogEntry entry) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("url", entry.getUrl());
    line.put("outcome", entry.getOutcome().name());
    line.put("detail", entry.getDetail());
    line.put("time", entry.getTime().toString());
    line.put("service", entry.getService());
    return line;
  }

  /** One line of {@code --chunks}: the event, or a tombstone (a chunk id with no event). */
  private void onChunk(ConsumerRecord<String, ChunkEvent> record) {
    chunks.incrementAndGet();
    if (chunkFile == null) {
      return;
    }
    ChunkEvent chunk = record.value();
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("event", chunk == null ? "TOMBSTONE" : chunk.getType().name());
    line.put("id", record.key());
    if (chunk != null) {
      line.put("url", chunk.getUrl());
      line.put("documentVersion", chunk.getDocumentVersion());
      if (chunk.getType() == ChunkEventType.UPSERT) {
        line.put("position", chunk.getPosition());
        line.put("of", chunk.getOf());
        line.put("headingPath", chunk.getHeadingPath());
        line.put("text", chunk.getText());
        line.put("markdown", chunk.getMarkdown());
      }
    }
    write(chunkFile, line);
  }

  private void onDocument(GenericRecord event) {
    GenericRecord document = (GenericRecord) event.get("document");
    (document != null ? upserts : deletes).incrementAndGet();
    if (documentFile != null) {
      writeDocument(documentFile, event, document);
    }
  }

  /**
   * One line of {@code --out}: the event's strings are copied out as the UTF-8 they were written in
   * (decoding a page's text into a Java string and encoding it again was most of this thread's
   * work).
   */
  private synchronized void writeDocument(
      OutputStream file, GenericRecord event, @Nullable GenericRecord document) {
    try (JsonGenerator json = JSON.getFactory().createGenerator(file)) {
      json.writeStartObject();
      writeString(json, "type", event.get("type"));
      writeString(json, "url", event.get("url"));
      writeString(json, "canonicalUrl", document == null ? null : document.get("canonicalUrl"));
      writeString(json, "title", document == null ? null : document.get("title"));
      writeString(json, "checksum", document == null ? null : document.get("contentChecksum"));
      writeString(json, "reason", event.get("deleteReason"));
      json.writeFieldName("version");
      if (document == null) {
        json.writeNull();
      } else {
        json.writeNumber((Long) document.get("version"));
        writeString(json, "permalink", document.get("permalink"));
        Object publishedAt = document.get("publishedAt");
        json.writeStringField(
            "publishedAt",
            publishedAt == null ? null : Instant.ofEpochMilli((Long) publishedAt).toString());
        writeString(json, "contentType", document.get("contentType"));
        writeString(json, "language", document.get("language"));
        writeString(json, "declaredLanguage", document.get("declaredLanguage"));
        writeString(json, "author", document.get("author"));
        json.writeFieldName("filePageCount");
        if (document.get("filePageCount") == null) {
          json.writeNull();
        } else {
          json.writeNumber((Integer) document.get("filePageCount"));
        }
        json.writeNumberField("pageCount", (Integer) document.get("pageCount"));
        json.writeArrayFieldStart("pages");
        for (Object page : (List<?>) document.get("pages")) {
          writeString(json, page);
        }
        json.writeEndArray();
        writeString(json, "text", document.get("text"));
        writeString(json, "markdown", document.get("markdown"));
        writeRaw(json, "structuredData", document.get("structuredData"));
        writeRaw(json, "usage", document.get("usage"));
        json.writeBooleanField("rendered", Boolean.TRUE.equals(document.get("rendered")));
      }
      json.writeEndObject();
      json.writeRaw('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A nested record as JSON (Avro's own rendering of it), or null. */
  private static void writeRaw(JsonGenerator json, String name, @Nullable Object value)
      throws IOException {
    json.writeFieldName(name);
    if (value == null) {
      json.writeNull();
    } else {
      json.writeRawValue(value.toString());
    }
  }

  private static void writeString(JsonGenerator json, String name, @Nullable Object value)
      throws IOException {
    json.writeFieldName(name);
    writeString(json, value);
  }

  /** A string as Avro read it ({@link Utf8}), an enum symbol, or null. */
  private static void writeString(JsonGenerator json, @Nullable Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Utf8 utf8) {
      json.writeUTF8String(utf8.getBytes(), 0, utf8.getByteLength());
    } else {
      json.writeString(value.toString());
    }
  }

  /** How many log entries of each outcome this run saw. */
  Map<Outcome, Long> outcomeCounts() {
    Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
    outcomes.forEach((outcome, count) -> counts.put(outcome, count.get()));
    return counts;
  }

  /**
   * Pages requested from the sites (every outcome of a request; not robots.txt blocks, filters,
   * scope).
   */
  long fetched() {
    return fetched.get();
  }

  long upserts() {
    return upserts.get();
  }

  long deletes() {
    return deletes.get();
  }

  long errors() {
    Map<Outcome, Long> counts = outcomeCounts();
    return counts.get(Outcome.NETWORK_ERROR)
        + counts.get(Outcome.BAD_STATUS)
        + counts.get(Outcome.ERROR)
        + counts.get(Outcome.RATE_LIMITED);
  }

  /**
   * Waits until every event up to these end offsets has been read and written out, or the timeout
   * passed.
   */
  boolean awaitReached(Map<TopicPartition, Long> endOffsets, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (positions) {
      while (!hasReached(endOffsets)) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || finished.getCount() == 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(positions, left);
      }
    }
    return true;
  }

  private boolean hasReached(Map<TopicPartition, Long> endOffsets) {
    return endOffsets.entrySet().stream()
        .allMatch(end -> positions.getOrDefault(end.getKey(), 0L) >= end.getValue());
  }

  /** The partitions followed. */
  List<TopicPartition> partitions() {
    return List.copyOf(positions.keySet());
  }

  /** Stops following and closes the files; returns when the last event read is written. */
  @Override
  public void close() {
    stopped = true;
    consumer.wakeup(); // out of its poll now, not when the poll ends
    try {
      finished.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void closeFiles() {
    try {
      for (OutputStream file : files()) {
        file.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void write(OutputStream file, Map<String, Object> line) {
    try {
      // Jackson writes UTF-8 itself: through a Writer
      // every character would be encoded a second time
      JSON.writeValue(file, line);
      file.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void flush() {
    try {
      for (OutputStream file : files()) {
        file.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The files written, those asked for. */
  private List<OutputStream> files() {
    List<OutputStream> files = new ArrayList<>(3);
    for (OutputStream file : new OutputStream[] {logFile, documentFile, chunkFile}) {
      if (file != null) {
        files.add(file);
      }
    }
    return files;
  }

  private static OutputStream open(Path path) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return new BufferedOutputStream(Files.newOutputStream(path), 64 * 1024);
  }
}
