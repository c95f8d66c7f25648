package dev.crawler.common.kafka;

import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads partitions of a topic from their start, with a consumer of no group assigned by hand: up to
 * the end they have when reading starts, within a bound ({@link #readToEnd}), or on and on ({@link
 * #follow}). Whoever rebuilds a view from a topic (what operators hold, the configuration in force,
 * the politeness handed over, a command printing documents) reads through here.
 *
 * <p>A read that gives up before the end says so twice: a warning in the log naming what it read,
 * and a {@link Result} whose {@link Result#isComplete()} is false, so the caller decides whether a
 * partial view is good enough. Not thread-safe: the consumer is the caller's.
 */
public final class TopicReader {

  private static final Logger LOG = LoggerFactory.getLogger(TopicReader.class);

  /** How long one poll waits for records. */
  private static final Duration POLL = Duration.ofMillis(200);

  /** What is done with each record; answers whether to go on. */
  @FunctionalInterface
  public interface Handler<R> {
    boolean accept(R record) throws Exception;
  }

  /**
   * How a read ended.
   *
   * @param read records handed to the handler
   * @param undecodable records skipped because they could not be decoded
   * @param left per partition, the records between where reading stopped and the end it aimed for
   *     (empty when complete)
   * @param stopped whether the handler asked to stop
   */
  public record Result(
      long read, long undecodable, Map<TopicPartition, Long> left, boolean stopped) {

    public Result {
      left = Map.copyOf(left);
    }

    /** Whether every record up to the end was read (or the handler stopped the read). */
    public boolean isComplete() {
      return stopped || left.isEmpty();
    }

    /** The records left unread. */
    public long recordsLeft() {
      return left.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Consumer<byte[], byte[]> consumer;
  private final String what;

  /**
   * @param consumer a consumer of no group ({@link ClientSettings#reader})
   * @param what what is read, in words, for the log ("the operators' commands")
   */
  public TopicReader(Consumer<byte[], byte[]> consumer, String what) {
    this.consumer = consumer;
    this.what = what;
  }

  /**
   * Reads the whole topic to the end it has now, decoded, with a consumer of its own made with
   * these settings ({@link ClientSettings#reader}) and closed on return.
   */
  public static <V> Result read(
      Map<String, Object> readerSettings,
      TopicSpec<String, V> topic,
      Duration bound,
      Handler<ConsumerRecord<String, V>> handler,
      java.util.function.Consumer<String> skipped) {
    try (Consumer<byte[], byte[]> consumer = ClientSettings.rawConsumer(readerSettings)) {
      return new TopicReader(consumer, topic.name()).readToEnd(topic, bound, handler, skipped);
    }
  }

  /**
   * Follows the whole topic, decoded, with a consumer of its own made with these settings, until
   * the handler answers false.
   */
  public static <V> void follow(
      Map<String, Object> readerSettings,
      TopicSpec<String, V> topic,
      Handler<ConsumerRecord<String, V>> handler,
      java.util.function.Consumer<String> skipped) {
    try (Consumer<byte[], byte[]> consumer = ClientSettings.rawConsumer(readerSettings)) {
      new TopicReader(consumer, topic.name()).follow(topic, handler, skipped, () -> false);
    }
  }

  /** Every partition of the topic, asked of the cluster within {@code timeout}. */
  public List<TopicPartition> partitionsOf(String topic, Duration timeout) {
    List<TopicPartition> partitions = new ArrayList<>();
    consumer
        .partitionsFor(topic, timeout)
        .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
    return partitions;
  }

  /**
   * Reads the partitions from their start to the end they have now, for at most {@code bound}
   * (asking for the ends included); the partitions stay assigned, positioned where reading stopped.
   */
  public Result readToEnd(
      Collection<TopicPartition> partitions,
      Duration bound,
      Handler<ConsumerRecord<byte[], byte[]>> handler) {
    long deadline = System.nanoTime() + bound.toNanos();
    List<TopicPartition> assigned = List.copyOf(partitions);
    consumer.assign(assigned);
    consumer.seekToBeginning(assigned);
    Map<TopicPartition, Long> ends =
        consumer.endOffsets(assigned, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
    long read = 0;
    while (!behind(ends).isEmpty() && System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        read++;
        if (!accept(handler, record)) {
          return new Result(read, 0, Map.of(), true);
        }
      }
    }
    Map<TopicPartition, Long> left = behind(ends);
    Result result = new Result(read, 0, left, false);
    if (!left.isEmpty()) {
      LOG.warn(
          "gave up reading {} after {}: {} records read, {} left unread ({}); going on with what was read",
          what,
          bound,
          read,
          result.recordsLeft(),
          left);
    }
    return result;
  }

  /**
   * Reads the whole topic to the end it has now, decoded; undecodable records are told to {@code
   * skipped} and counted.
   */
  public <V> Result readToEnd(
      TopicSpec<String, V> topic,
      Duration bound,
      Handler<ConsumerRecord<String, V>> handler,
      java.util.function.Consumer<String> skipped) {
    Decoding<V> decoding = new Decoding<>(topic, handler, skipped);
    Result raw = readToEnd(partitionsOf(topic.name(), bound), bound, decoding);
    return new Result(
        raw.read() - decoding.undecodable, decoding.undecodable, raw.left(), raw.stopped());
  }

  /**
   * Reads the whole topic from its start and goes on reading what comes, until the handler answers
   * false or {@code stop} answers true (asked between polls).
   */
  public <V> void follow(
      TopicSpec<String, V> topic,
      Handler<ConsumerRecord<String, V>> handler,
      java.util.function.Consumer<String> skipped,
      BooleanSupplier stop) {
    List<TopicPartition> partitions = partitionsOf(topic.name(), Duration.ofSeconds(30));
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Decoding<V> decoding = new Decoding<>(topic, handler, skipped);
    while (!stop.getAsBoolean()) {
      for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        if (!accept(decoding, record)) {
          return;
        }
      }
    }
  }

  private Map<TopicPartition, Long> behind(Map<TopicPartition, Long> ends) {
    Map<TopicPartition, Long> behind = new HashMap<>();
    ends.forEach(
        (partition, end) -> {
          long position = consumer.position(partition);
          if (position < end) {
            behind.put(partition, end - position);
          }
        });
    return behind;
  }

  private static <R> boolean accept(Handler<R> handler, R record) {
    try {
      return handler.accept(record);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new ReadFailedException(e);
    }
  }

  /** A handler's checked exception, carried out of the read. */
  public static final class ReadFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ReadFailedException(Exception cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Decodes each record for a handler of decoded records; counts what it cannot decode. */
  private static final class Decoding<V> implements Handler<ConsumerRecord<byte[], byte[]>> {
    private final RecordDecoder<String, V> decoder;
    private final Handler<ConsumerRecord<String, V>> handler;
    private final java.util.function.Consumer<String> skipped;
    private long undecodable;

    Decoding(
        TopicSpec<String, V> topic,
        Handler<ConsumerRecord<String, V>> handler,
        java.util.function.Consumer<String> skipped) {
      this.decoder = new RecordDecoder<>(topic);
      this.handler = handler;
      this.skipped = skipped;
    }

    @Override
    public boolean accept(ConsumerRecord<byte[], byte[]> raw) throws Exception {
      ConsumerRecord<String, V> record;
      try {
        record = decoder.decode(raw);
      } catch (UndecodableRecordException e) {
        undecodable++;
        skipped.accept(e.getMessage());
        return true;
      }
      return handler.accept(record);
    }
  }
}
