package dev.crawler.schemas.serde;

import org.apache.kafka.common.errors.SerializationException;
import org.jspecify.annotations.Nullable;

/**
 * A record whose bytes cannot be decoded: not in the Confluent wire format, a schema id the
 * registry does not know, Avro that does not match its schema. The message names the topic, and the
 * partition and offset when they are known, so that whoever routes the record to the dead-letter
 * topic can say which record it was.
 */
public final class UndecodableRecordException extends SerializationException {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final int partition;
  private final long offset;
  private final String reason;

  public UndecodableRecordException(String topic, String reason, @Nullable Throwable cause) {
    this(topic, -1, -1L, reason, cause);
  }

  public UndecodableRecordException(
      String topic, int partition, long offset, String reason, @Nullable Throwable cause) {
    super(describe(topic, partition, offset) + ": " + reason, cause);
    this.topic = topic;
    this.partition = partition;
    this.offset = offset;
    this.reason = reason;
  }

  /** The same error, now that the record's position is known. */
  public UndecodableRecordException at(int partition, long offset) {
    return new UndecodableRecordException(topic, partition, offset, reason, getCause());
  }

  public String topic() {
    return topic;
  }

  /** The partition, or -1 when unknown. */
  public int partition() {
    return partition;
  }

  /** The offset, or -1 when unknown. */
  public long offset() {
    return offset;
  }

  /** What was wrong with the bytes, without the position. */
  public String reason() {
    return reason;
  }

  private static String describe(String topic, int partition, long offset) {
    if (partition < 0) {
      return "undecodable record on topic " + topic;
    }
    return "undecodable record on topic " + topic + " partition " + partition + " offset " + offset;
  }
}
