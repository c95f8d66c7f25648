package dev.crawler.fetcher.kafka;

import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what each request gave and marks the request done in {@link PartitionOffsets} once Kafka
 * has acknowledged all of its records. A write that fails for a reason that passes (a timeout, the
 * broker away) is written again once Kafka takes writes; a fetch result Kafka refuses for good (a
 * record too large) is replaced by an {@code ERROR} outcome. While Kafka acknowledges nothing, it
 * says so ({@link #canWriteResults()}) and the loop starts no request whose result it could not
 * write. Owned by the fetch loop's thread; Kafka's callbacks come back through {@link LoopTasks}.
 */
final class ResultWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ResultWriter.class);

  /**
   * Results waiting this long without any acknowledgement mean Kafka is not taking them (a healthy
   * broker answers in milliseconds).
   */
  static final long ACKNOWLEDGEMENT_STALL_MILLIS = 2_000;

  /**
   * One request's records, kept to be written again when a write fails for a passing reason.
   *
   * @param hasFallback whether the first record is a fetch result, replaced by an {@code ERROR}
   *     outcome if Kafka refuses it for good
   */
  private record Write(
      TopicPartition partition,
      long offset,
      List<ProducerRecord<byte[], byte[]>> records,
      boolean hasFallback) {}

  private final Producer<byte[], byte[]> producer;
  private final PartitionOffsets offsets;
  private final FetchRecords records;
  private final LoopTasks tasks;
  private final InstantSource clock;
  private final int maxUnacknowledged;

  /** Results whose write failed for a reason that passes: written again once Kafka takes writes. */
  private final ArrayDeque<Write> unwritten = new ArrayDeque<>();

  private int unacknowledged;

  /** Whether results were written lately ({@link #canWriteResults()}). */
  private boolean canWrite = true;

  /** Since when results have waited for an acknowledgement (epoch ms); reset by each one. */
  private long waitingSince;

  /** When a write last failed for a reason that passes, and when one last succeeded (epoch ms). */
  private long lastFailedAt = Long.MIN_VALUE;

  private long lastSucceededAt = Long.MIN_VALUE;

  /**
   * @param maxUnacknowledged requests whose records may wait for Kafka before no request starts
   */
  ResultWriter(
      Producer<byte[], byte[]> producer,
      PartitionOffsets offsets,
      FetchRecords records,
      LoopTasks tasks,
      InstantSource clock,
      int maxUnacknowledged) {
    this.producer = producer;
    this.offsets = offsets;
    this.records = records;
    this.tasks = tasks;
    this.clock = clock;
    this.maxUnacknowledged = maxUnacknowledged;
  }

  /**
   * Sends the records of the request at {@code offset}; when Kafka has acknowledged them all, the
   * offset is done.
   *
   * @param hasFallback whether the first record is a fetch result, to be replaced by an {@code
   *     ERROR} outcome if Kafka refuses it for good
   */
  void send(
      TopicPartition partition,
      long offset,
      List<ProducerRecord<byte[], byte[]>> records,
      boolean hasFallback) {
    send(new Write(partition, offset, records, hasFallback));
  }

  private void send(Write write) {
    if (isStalled()) {
      // Kafka takes nothing (the broker away), and a send would block the loop:
      // written when it does
      unwritten.add(write);
      return;
    }
    AtomicInteger remaining = new AtomicInteger(write.records().size());
    AtomicReference<Exception> firstError = new AtomicReference<>();
    if (unacknowledged++ == 0) {
      waitingSince = clock.millis();
    }
    offsets.started(write.partition());
    for (ProducerRecord<byte[], byte[]> record : write.records()) {
      producer.send(
          record,
          (metadata, error) -> {
            if (error != null
                && firstError.compareAndSet(null, error)
                && !(error instanceof RetriableException)) {
              LOG.error("cannot write to {}: {}", record.topic(), error.toString());
            }
            if (remaining.decrementAndGet() == 0) {
              tasks.submit(() -> acknowledged(write, firstError.get()));
            }
          });
    }
  }

  /** Sends a record that no request's offset waits for (sitemaps, politeness state). */
  void sendUntracked(ProducerRecord<byte[], byte[]> record) {
    producer.send(
        record,
        (metadata, error) -> {
          if (error != null) {
            LOG.warn("cannot write to {}: {}", record.topic(), error.toString());
          }
        });
  }

  /**
   * Writes again the results whose write failed for a reason that passes, once Kafka takes writes.
   */
  void writeUnwritten() {
    while (!unwritten.isEmpty() && !isStalled()) {
      send(unwritten.poll());
    }
  }

  /**
   * Kafka answered the writes of one request. Written: its offset is done. Failed for a reason that
   * passes: written again later, the offset not done meanwhile. Failed for good: an {@code ERROR}
   * outcome is written in the result's place.
   */
  private void acknowledged(Write sent, @Nullable Exception error) {
    unacknowledged--;
    offsets.released(sent.partition());
    long now = clock.millis();
    if (error instanceof RetriableException) {
      lastFailedAt = now;
      unwritten.add(sent);
      return;
    }
    waitingSince = now;
    lastSucceededAt = now;
    if (error != null && sent.hasFallback()) {
      Optional<List<ProducerRecord<byte[], byte[]>>> replacement =
          records.inPlaceOf(sent.records().get(0), error);
      if (replacement.isPresent()) {
        send(sent.partition(), sent.offset(), replacement.get(), false);
        return;
      }
    }
    offsets.done(sent.partition(), sent.offset());
  }

  /**
   * Whether results can be written: Kafka acknowledged one within {@value
   * #ACKNOWLEDGEMENT_STALL_MILLIS} ms while some wait, and fewer than {@code maxUnacknowledged}
   * wait. When Kafka stops acknowledging (the broker away), no new request starts, so the fetcher
   * does not fetch pages whose results it cannot write; the requests it holds wait, and start again
   * when Kafka takes the results.
   */
  boolean canWriteResults() {
    boolean can = !isStalled() && unacknowledged < maxUnacknowledged;
    if (can != canWrite) {
      canWrite = can;
      if (can) {
        LOG.info("Kafka acknowledges the results again: requests start again");
      } else {
        LOG.warn(
            "{} results wait for Kafka's acknowledgement: no request starts until Kafka takes them",
            unacknowledged);
      }
    }
    return can;
  }

  /** What {@link #canWriteResults()} last answered. */
  boolean couldWriteResults() {
    return canWrite;
  }

  /**
   * Whether Kafka takes no writes now: results have waited {@value #ACKNOWLEDGEMENT_STALL_MILLIS}
   * ms without any acknowledgement, or the last write failed for a reason that passes and nothing
   * was written since (tried again {@value #ACKNOWLEDGEMENT_STALL_MILLIS} ms later).
   */
  boolean isStalled() {
    long now = clock.millis();
    boolean isWaiting = unacknowledged > 0 && now - waitingSince > ACKNOWLEDGEMENT_STALL_MILLIS;
    boolean hasFailed =
        lastFailedAt > lastSucceededAt && now - lastFailedAt < ACKNOWLEDGEMENT_STALL_MILLIS;
    return isWaiting || hasFailed;
  }

  /** Whether records wait for Kafka: sent and not acknowledged, or not written yet. */
  boolean hasWaiting() {
    return unacknowledged > 0 || !unwritten.isEmpty();
  }

  /**
   * Sends what the producer holds and waits for it, unless Kafka takes no writes (then a flush
   * would wait for the delivery timeout, minutes).
   */
  void flush() {
    if (!isStalled()) {
      producer.flush();
    }
  }

  /**
   * Drops the unwritten results of partitions no longer this fetcher's: their offsets were not
   * committed, so the partitions' next owner fetches those requests again.
   */
  void forget(Collection<TopicPartition> partitions) {
    unwritten.removeIf(write -> partitions.contains(write.partition()));
  }
}
