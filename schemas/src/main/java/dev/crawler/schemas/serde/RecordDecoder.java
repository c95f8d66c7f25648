package dev.crawler.schemas.serde;

import dev.crawler.schemas.TopicSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes raw consumer records of one topic, turning any failure into an {@link
 * UndecodableRecordException} that names the topic, partition and offset. Consumers that read bytes
 * and decode with this can send what fails to the dead-letter topic ({@link DeadLetters}) and go
 * on, instead of being stopped by the consumer's own deserialization error. Thread-safe.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class RecordDecoder<K, V> {

  private final Deserializer<K> keys;
  private final Deserializer<V> values;

  public RecordDecoder(TopicSpec<K, V> topic) {
    this.keys = topic.keySerde().deserializer();
    this.values = topic.valueSerde().deserializer();
  }

  /** The decoded key and value; a null value stays null (a tombstone). */
  public ConsumerRecord<K, V> decode(ConsumerRecord<byte[], byte[]> raw) {
    try {
      K key = keys.deserialize(raw.topic(), raw.headers(), raw.key());
      V value = values.deserialize(raw.topic(), raw.headers(), raw.value());
      return new ConsumerRecord<>(
          raw.topic(),
          raw.partition(),
          raw.offset(),
          raw.timestamp(),
          raw.timestampType(),
          raw.serializedKeySize(),
          raw.serializedValueSize(),
          key,
          value,
          raw.headers(),
          raw.leaderEpoch());
    } catch (UndecodableRecordException e) {
      throw e.at(raw.partition(), raw.offset());
    } catch (RuntimeException e) {
      throw new UndecodableRecordException(
          raw.topic(), raw.partition(), raw.offset(), e.toString(), e);
    }
  }
}
