package dev.crawler.schemas.serde;

import dev.crawler.events.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

/**
 * Builds the {@link DeadLetter} for a record a service gave up on, keeping its bytes and the error.
 */
public final class DeadLetters {

  private DeadLetters() {}

  /**
   * The dead letter for a raw record that failed.
   *
   * @param service which service gave up on it
   * @param error what failed; its message should name the topic and offset (see {@link
   *     UndecodableRecordException})
   */
  public static DeadLetter of(
      ConsumerRecord<byte[], byte[]> record, Throwable error, String service, Instant now) {
    return of(
        record.topic(),
        record.partition(),
        record.offset(),
        record.key(),
        record.value(),
        record.headers(),
        error,
        service,
        now);
  }

  /**
   * The dead letter for a record given by its parts (Kafka Streams' error handlers see it this
   * way).
   */
  public static DeadLetter of(
      String topic,
      int partition,
      long offset,
      byte @Nullable [] key,
      byte @Nullable [] value,
      Headers headers,
      Throwable error,
      String service,
      Instant now) {
    String message = error.getMessage() != null ? error.getMessage() : error.toString();
    if (!message.contains(topic)) {
      message =
          "record on topic "
              + topic
              + " partition "
              + partition
              + " offset "
              + offset
              + ": "
              + message;
    }
    return DeadLetter.newBuilder()
        .setTopic(topic)
        .setPartition(partition)
        .setOffset(offset)
        .setKey(key == null ? null : ByteBuffer.wrap(key))
        .setValue(value == null ? null : ByteBuffer.wrap(value))
        .setHeaders(textHeaders(headers))
        .setError(message)
        .setErrorClass(error.getClass().getName())
        .setService(service)
        .setTime(now)
        .build();
  }

  private static Map<String, String> textHeaders(Headers headers) {
    Map<String, String> text = new LinkedHashMap<>();
    for (Header header : headers) {
      if (header.value() == null) {
        continue;
      }
      try {
        text.put(
            header.key(),
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(header.value())).toString());
      } catch (CharacterCodingException e) {
        // binary header: not representable as text, and not needed to understand the failure
      }
    }
    return text;
  }
}
