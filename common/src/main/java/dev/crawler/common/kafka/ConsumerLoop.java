package dev.crawler.common.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of a plain consumer (not Kafka Streams) that writes what it makes of its records, and
 * the offsets past them, in one transaction: exactly once, and a record's dead letter is written in
 * the same transaction as the offset that moves past the record, so neither goes without the other.
 *
 * <p>A subclass says what to do when the loop starts ({@link #starting()}: recover, subscribe),
 * with each poll's records ({@link #process}), and on the way out ({@link #stopping()}); it writes
 * through {@link #commit}, and goes back to the committed offsets with {@link #rewind()} when a
 * commit failed or it gave up on records. One way to stop, the {@code KafkaConsumer} runner's: a
 * closed flag, {@link Consumer#wakeup()} from {@link #close()}, and the clients closed in {@code
 * finally}.
 *
 * <p>{@link #run()} on the loop's own thread; {@link #close()} and {@link #failure()} from any.
 */
public abstract class ConsumerLoop implements Runnable, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);

  /** How long closing a client may wait for what it has in flight. */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  /** The loop's name in the log: "the archive writer", "the file import loop". */
  private final String name;

  protected final Consumer<byte[], byte[]> consumer;
  private final Supplier<Producer<byte[], byte[]>> producers;
  private final Duration poll;
  private @Nullable Producer<byte[], byte[]> producer;
  private volatile boolean closing;
  private volatile @Nullable Throwable failure;

  /**
   * @param consumer a consumer of its own group, read_committed, without auto commit ({@link
   *     ClientSettings#groupConsumer})
   * @param producers makes a transactional producer ({@link ClientSettings#transactionalProducer}),
   *     again after one failed for good
   * @param poll how long a poll waits for records
   */
  protected ConsumerLoop(
      String name,
      Consumer<byte[], byte[]> consumer,
      Supplier<Producer<byte[], byte[]>> producers,
      Duration poll) {
    this.name = name;
    this.consumer = consumer;
    this.producers = producers;
    this.poll = poll;
  }

  /** Readies what the loop needs and subscribes the consumer; runs first on the loop's thread. */
  protected abstract void starting();

  /** Handles one poll's records (which may be none). */
  protected abstract void process(ConsumerRecords<byte[], byte[]> records);

  /** Finishes what the loop holds when it is closed (not when it failed); may commit. */
  protected void stopping() {}

  /** Lets go of what the loop holds when it stops without finishing (a failure, a wakeup). */
  protected void abandoned() {}

  @Override
  public final void run() {
    try {
      if (producer == null) {
        start();
      }
      while (!closing) {
        turn();
      }
      finish();
    } catch (WakeupException e) {
      if (closing) {
        finish();
      } else {
        failure = e;
        abandoned();
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      LOG.error("{} failed and stopped", name, e);
      abandoned();
    } finally {
      consumer.close(CLOSE_TIMEOUT);
      if (producer != null) {
        producer.close(CLOSE_TIMEOUT);
      }
      stopped();
    }
  }

  /**
   * Readies the producer's transactions, then {@link #starting()}: what {@link #run()} does first
   * unless this was called (a test drives the loop with this and {@link #turn()}, and ends it with
   * {@link #close()} and {@link #run()}).
   */
  public final void start() {
    producer = producers.get();
    producer.initTransactions();
    starting();
  }

  private void finish() {
    try {
      stopping();
    } catch (RuntimeException e) {
      LOG.warn("{}: finishing on the way out failed ({})", name, e.toString());
      abandoned();
    }
  }

  /** One turn of the loop: a poll and its records. */
  public final void turn() {
    process(consumer.poll(poll));
  }

  /** Called last, on the loop's thread, after the clients are closed. */
  protected void stopped() {}

  /**
   * Writes the outputs and moves the group's offsets to these, in one transaction.
   *
   * @return whether it committed; when not, the transaction was aborted and nothing of it is
   *     visible: the caller reads its records again ({@link #rewind()})
   */
  protected final boolean commit(
      List<ProducerRecord<byte[], byte[]>> outputs,
      Map<TopicPartition, OffsetAndMetadata> offsets) {
    Producer<byte[], byte[]> writer = producer();
    try {
      writer.beginTransaction();
      for (ProducerRecord<byte[], byte[]> output : outputs) {
        writer.send(output);
      }
      if (!offsets.isEmpty()) {
        writer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
      }
      writer.commitTransaction();
      return true;
    } catch (KafkaException e) {
      LOG.warn(
          "{}: writing a transaction failed ({}); its records are read again", name, e.toString());
      abort();
      return false;
    }
  }

  /** Aborts the open transaction; a producer that cannot abort is replaced. */
  private void abort() {
    try {
      producer().abortTransaction();
    } catch (KafkaException e) {
      LOG.warn("{}: the producer cannot abort ({}); starting a new one", name, e.toString());
      producer().close(Duration.ZERO);
      producer = producers.get();
      producer.initTransactions();
    }
  }

  /**
   * Goes back to the committed offset of every partition assigned, to read those records again.
   *
   * @throws IllegalStateException when the committed offsets cannot be had: the loop fails, and its
   *     partitions are read again from them by whoever takes them
   */
  protected final void rewind() {
    rewound();
    Set<TopicPartition> assignment = consumer.assignment();
    if (assignment.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> committed;
    try {
      committed = consumer.committed(assignment, Duration.ofSeconds(30));
    } catch (KafkaException e) {
      throw new IllegalStateException("cannot read the committed offsets of " + assignment, e);
    }
    for (TopicPartition partition : assignment) {
      OffsetAndMetadata offset = committed.get(partition);
      if (offset != null) {
        consumer.seek(partition, offset);
      } else {
        consumer.seekToBeginning(List.of(partition));
      }
    }
  }

  /** Forgets what the loop remembers of records it will read again; called by {@link #rewind()}. */
  protected void rewound() {}

  private Producer<byte[], byte[]> producer() {
    if (producer == null) {
      throw new IllegalStateException(name + " has not started");
    }
    return producer;
  }

  /** Whether {@link #close()} was called. */
  protected final boolean isClosing() {
    return closing;
  }

  /** Why the loop stopped, when it stopped on a failure. */
  public final Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /** Stops the loop: it wakes from its poll, finishes ({@link #stopping()}) and ends. */
  @Override
  public void close() {
    closing = true;
    consumer.wakeup();
  }
}
