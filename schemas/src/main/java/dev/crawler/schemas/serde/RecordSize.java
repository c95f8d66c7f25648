package dev.crawler.schemas.serde;

import dev.crawler.schemas.TopicSpec;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The bound on a record's serialized value: a value the topics would refuse is refused while it is
 * serialized, before any producer sees it. A producer that is handed a record too large fails its
 * whole transaction, so a Kafka Streams task would try the same input again for ever; a record
 * refused at serialization goes to the dead letters instead ({@code DeadLetterHandler}), and the
 * transaction goes on.
 */
public final class RecordSize {

  /**
   * The largest serialized value: the topics' {@code max.message.bytes}, less room for the key, the
   * headers and the batch's own framing.
   */
  public static final int MAX_VALUE_BYTES = TopicSpec.MAX_MESSAGE_BYTES - 256 * 1024;

  private RecordSize() {}

  /** The bytes, when they are within the bound. */
  static byte[] checked(byte[] bytes, Class<?> type, String topic) {
    check(bytes.length, type, topic);
    return bytes;
  }

  /**
   * @throws SerializationException caused by a {@link RecordTooLargeException} when the value is
   *     larger than {@link #MAX_VALUE_BYTES}
   */
  static void check(int size, Class<?> type, String topic) {
    if (size > MAX_VALUE_BYTES) {
      throw new SerializationException(
          type.getSimpleName() + " for " + topic + " is too large",
          new RecordTooLargeException(
              "a "
                  + type.getSimpleName()
                  + " of "
                  + size
                  + " bytes for "
                  + topic
                  + " is larger than the "
                  + MAX_VALUE_BYTES
                  + " a record may be"));
    }
  }
}
