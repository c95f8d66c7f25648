package dev.crawler.archive.kafka;

import dev.crawler.archive.domain.ArchiveDirectory;
import dev.crawler.archive.domain.ArchiveFile;
import dev.crawler.archive.domain.WarcRecords;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.ConsumerLoop;
import dev.crawler.events.ArchivedExchanges;
import dev.crawler.events.FetchResult;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.netpreserve.jwarc.WarcRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the fetchers recorded to WARC files, exactly once: the exchanges of every fetch
 * result ({@code crawl.fetch-results}) and of every fetch that gave none ({@code crawl.exchanges}:
 * robots.txt, redirects recorded, error statuses, 304s).
 *
 * <p>Records go to the open file in the order they are read. A file is closed when it reaches its
 * size, when it has been open for its longest time, when partitions are taken from this writer, and
 * when the writer stops: it is synced to the disk with the offsets after its records beside it,
 * then the offsets are committed (with the file's name) in one transaction with the dead letters of
 * the records that could not be read, then the file gets its final name. Offsets are never
 * committed for records not in a synced file, nor past a dead letter not written; records of a file
 * whose offsets were not committed are read again; {@link ArchiveDirectory#recover} settles what a
 * crash left. A partition lost without a chance to commit (the writer's session expired) leaves the
 * open file discarded: the partition's new owner writes its records.
 *
 * <p>Runs on its own thread ({@link #run()}); {@link #close()} from another. Not otherwise
 * thread-safe.
 */
public final class ArchiveLoop extends ConsumerLoop {

  private static final Logger LOG = LoggerFactory.getLogger(ArchiveLoop.class);

  static final String SERVICE = "archive";

  private static final Duration POLL = Duration.ofMillis(500);

  /** Where, with what names and how large the files are. */
  public record Settings(
      Path directory, String prefix, String instance, long maxFileBytes, Duration maxFileAge) {}

  private final Topics topics;
  private final Settings settings;
  private final WarcRecords warc;
  private final InstantSource clock;
  private final Counter exchanges;
  private final Counter bytesWritten;
  private final Counter filesClosed;

  private @Nullable ArchiveFile file;
  private long serial;

  /** The offset after the last record in the open file, per partition. */
  private final Map<TopicPartition, Long> pending = new HashMap<>();

  /** The dead letters of records read since the last commit, written with it. */
  private final List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();

  /** The offset after the last record read, per partition: what {@link #hasRead} answers from. */
  private final Map<TopicPartition, Long> read = new ConcurrentHashMap<>();

  private boolean warnedOfEmptyResults;
  private long archivedRecords;
  private long closedFiles;
  private long closedBytes;

  /**
   * @param consumer a consumer of its own group ({@link ClientSettings#groupConsumer})
   * @param producers makes the transactional producer that commits the offsets and dead letters
   */
  public ArchiveLoop(
      Consumer<byte[], byte[]> consumer,
      Supplier<Producer<byte[], byte[]>> producers,
      Topics topics,
      Settings settings,
      boolean outlinks,
      MeterRegistry registry,
      InstantSource clock) {
    super("the archive writer", consumer, producers, POLL);
    this.topics = topics;
    this.settings = settings;
    this.warc = new WarcRecords(outlinks);
    this.clock = clock;
    this.exchanges =
        Counter.builder("crawler.archive.records")
            .description("Kafka records archived (fetch results and exchanges)")
            .register(registry);
    this.bytesWritten =
        Counter.builder("crawler.archive.bytes")
            .description("Bytes of WARC files closed")
            .baseUnit("bytes")
            .register(registry);
    this.filesClosed =
        Counter.builder("crawler.archive.files")
            .description("WARC files closed and committed")
            .register(registry);
  }

  /** Settles what a crash left in the directory, then joins the group. */
  @Override
  protected void starting() {
    try {
      ArchiveDirectory.Recovery recovery =
          ArchiveDirectory.recover(settings.directory(), this::committed);
      if (!recovery.removed().isEmpty() || !recovery.kept().isEmpty()) {
        LOG.info(
            "archive {}: files left by a stop kept {} (committed), removed {} (their records are read again)",
            settings.directory(),
            recovery.kept(),
            recovery.removed());
      }
      if (!recovery.ambiguous().isEmpty()) {
        LOG.warn(
            "archive {}: kept {}, whose offsets were committed past them under another file's name: if their commit had failed, their"
                + " records are also in that file, with the same WARC-Record-IDs",
            settings.directory(),
            recovery.ambiguous());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot recover " + settings.directory(), e);
    }
    consumer.subscribe(
        List.of(topics.fetchResults().name(), topics.exchanges().name()), new Rebalance());
  }

  /** A poll's records archived, the file closed when it is time. */
  @Override
  protected void process(ConsumerRecords<byte[], byte[]> records) {
    for (ConsumerRecord<byte[], byte[]> record : records) {
      archive(record);
    }
    synchronized (read) {
      read.notifyAll();
    }
    if (file != null
        && (file.size() >= settings.maxFileBytes()
            || !clock.instant().isBefore(file.openedAt().plus(settings.maxFileAge())))) {
      closeFile();
    }
  }

  private void archive(ConsumerRecord<byte[], byte[]> raw) {
    WarcRecords.Coordinates from =
        new WarcRecords.Coordinates(raw.topic(), raw.partition(), raw.offset());
    List<WarcRecord> records;
    try {
      records = recordsOf(raw, from);
    } catch (RuntimeException e) {
      LOG.warn(
          "undecodable record at {}-{}@{}: dead letter",
          raw.topic(),
          raw.partition(),
          raw.offset());
      String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
      deadLetters.add(
          topics.deadLetters().serialized(key, DeadLetters.of(raw, e, SERVICE, clock.instant())));
      records = List.of();
    }
    try {
      if (!records.isEmpty()) {
        openFile().write(records);
        exchanges.increment();
        archivedRecords++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + settings.directory(), e);
    }
    TopicPartition partition = new TopicPartition(raw.topic(), raw.partition());
    pending.put(partition, raw.offset() + 1);
    read.put(partition, raw.offset() + 1);
  }

  /**
   * Waits until the loop has read every record before these end offsets, at most {@code timeout};
   * returns whether it has. Thread-safe.
   */
  public boolean awaitRead(Map<TopicPartition, Long> ends, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (read) {
      while (!hasRead(ends)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0 || isClosing() || failure().isPresent()) {
          return false;
        }
        read.wait(Math.min(left, POLL.toMillis()));
      }
    }
    return true;
  }

  /**
   * Whether the loop has read every record before these end offsets (a partition at 0 has none).
   * Thread-safe.
   */
  public boolean hasRead(Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (end.getValue() > 0 && read.getOrDefault(end.getKey(), 0L) < end.getValue()) {
        return false;
      }
    }
    return true;
  }

  private List<WarcRecord> recordsOf(
      ConsumerRecord<byte[], byte[]> raw, WarcRecords.Coordinates from) {
    if (raw.topic().equals(topics.fetchResults().name())) {
      FetchResult result =
          topics.fetchResults().valueSerde().deserializer().deserialize(raw.topic(), raw.value());
      if (result == null) {
        throw new IllegalArgumentException("a fetch result without a value");
      }
      if (result.getExchanges().isEmpty()) {
        if (!warnedOfEmptyResults) {
          warnedOfEmptyResults = true;
          LOG.warn(
              "fetch results carry no exchanges to archive: the fetchers record them only with fetcher.archive.exchanges=true");
        }
        return List.of();
      }
      return warc.of(from, result.getExchanges(), Optional.ofNullable(result.getBody()));
    }
    ArchivedExchanges archived =
        topics.exchanges().valueSerde().deserializer().deserialize(raw.topic(), raw.value());
    if (archived == null) {
      throw new IllegalArgumentException("exchanges without a value");
    }
    return warc.of(from, archived.getExchanges(), Optional.empty());
  }

  private ArchiveFile openFile() throws IOException {
    if (file == null) {
      file =
          ArchiveFile.open(
              settings.directory(),
              settings.prefix(),
              serial++,
              settings.instance(),
              clock.instant());
    }
    return file;
  }

  /**
   * Closes the open file: synced, its offsets committed under its name with the dead letters read
   * since the last commit, then its final name. The offsets of records that made no WARC record
   * (dead letters, results without exchanges) are committed with the next file, or alone when no
   * file is open. A commit that fails discards the file: its records are read again.
   */
  private void closeFile() {
    if (pending.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    String name = file == null ? "" : file.name();
    pending.forEach(
        (partition, offset) -> offsets.put(partition, new OffsetAndMetadata(offset, name)));
    try {
      if (file != null) {
        Map<String, Long> byPartition = new HashMap<>();
        pending.forEach((partition, offset) -> byPartition.put(partition.toString(), offset));
        file.sync(byPartition);
      }
      if (!commit(deadLetters, offsets)) {
        discardFile();
        rewind();
        return;
      }
      if (file != null) {
        long size = file.size();
        file.finish();
        bytesWritten.increment(size);
        filesClosed.increment();
        closedFiles++;
        closedBytes += size;
        LOG.info("archive file {} closed: {} records, {} bytes", name, file.records(), size);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + name + " in " + settings.directory(), e);
    }
    file = null;
    pending.clear();
    deadLetters.clear();
  }

  /** Leaves the open file to be written again (its records' offsets are not committed). */
  private void discardFile() {
    if (file != null) {
      try {
        file.discard();
      } catch (IOException e) {
        LOG.warn("cannot remove {}: {}", file.name(), e.toString());
      }
      file = null;
    }
    pending.clear();
    deadLetters.clear();
  }

  /** Closes the open file and commits its records on the way out. */
  @Override
  protected void stopping() {
    closeFile();
  }

  /** Leaves the open file to be written again by whoever reads its records next. */
  @Override
  protected void abandoned() {
    discardFile();
  }

  @Override
  protected void stopped() {
    LOG.info(
        "archive writer stopped: {} Kafka records archived, {} files, {} bytes closed; {} ms of CPU on its thread",
        archivedRecords,
        closedFiles,
        closedBytes,
        ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000);
  }

  private Map<String, ArchiveDirectory.Committed> committed(List<String> partitions) {
    Set<TopicPartition> asked = new HashSet<>();
    for (String partition : partitions) {
      int dash = partition.lastIndexOf('-');
      asked.add(
          new TopicPartition(
              partition.substring(0, dash), Integer.parseInt(partition.substring(dash + 1))));
    }
    Map<String, ArchiveDirectory.Committed> found = new HashMap<>();
    consumer
        .committed(asked, Duration.ofSeconds(30))
        .forEach(
            (partition, offset) -> {
              if (offset != null) {
                found.put(
                    partition.toString(),
                    new ArchiveDirectory.Committed(offset.offset(), offset.metadata()));
              }
            });
    return found;
  }

  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (!partitions.isEmpty()) {
        // the open file may hold records of these partitions: closed and committed while they
        // are still this writer's
        closeFile();
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      LOG.warn(
          "archive: partitions {} lost without a commit; the open file is discarded", partitions);
      discardFile();
    }
  }

  Instant now() {
    return clock.instant();
  }
}
