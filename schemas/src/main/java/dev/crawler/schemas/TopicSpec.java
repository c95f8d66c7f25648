package dev.crawler.schemas;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * One topic of the contract: its name, how its keys and values are serialized, and how it is kept.
 * Immutable; obtained from {@link Topics}, never built by callers.
 *
 * @param name the topic name
 * @param keySerde serde of the record keys
 * @param valueSerde serde of the record values
 * @param cleanupPolicy delete or compact
 * @param retention how long records are kept, when the topic is time-bounded; empty for the
 *     broker's default
 * @param coPartitionedByOrigin whether the topic is keyed by origin and must have the same
 *     partition count as the other origin-keyed topics (so one origin's records meet in one task)
 * @param fixedPartitions the partition count the topic must have whatever the configured count (1
 *     for a topic one task reads whole); 0 when the configured count applies
 * @param <K> the key type
 * @param <V> the value type
 */
public record TopicSpec<K, V>(
    String name,
    Serde<K> keySerde,
    Serde<V> valueSerde,
    CleanupPolicy cleanupPolicy,
    Optional<Duration> retention,
    boolean coPartitionedByOrigin,
    int fixedPartitions) {

  public TopicSpec {
    if (fixedPartitions < 0 || (fixedPartitions > 0 && coPartitionedByOrigin)) {
      throw new IllegalArgumentException(
          "a fixed partition count is positive and not for a co-partitioned topic: " + name);
    }
  }

  /** A topic with the configured partition count. */
  public TopicSpec(
      String name,
      Serde<K> keySerde,
      Serde<V> valueSerde,
      CleanupPolicy cleanupPolicy,
      Optional<Duration> retention,
      boolean coPartitionedByOrigin) {
    this(name, keySerde, valueSerde, cleanupPolicy, retention, coPartitionedByOrigin, 0);
  }

  /**
   * A record for this topic, its key and value serialized (a null key or value stays null: a
   * tombstone has no value), for a producer of raw records.
   */
  public ProducerRecord<byte[], byte[]> serialized(@Nullable K key, @Nullable V value) {
    return new ProducerRecord<>(
        name,
        key == null ? null : keySerde.serializer().serialize(name, key),
        value == null ? null : valueSerde.serializer().serialize(name, value));
  }

  /** The partitions to create the topic with: its fixed count, else {@code configured}. */
  public int partitions(int configured) {
    return fixedPartitions > 0 ? fixedPartitions : configured;
  }

  /**
   * The largest record batch a topic accepts, in bytes: room for a fetched body at the fetcher's
   * size limit, or a document's text. Producers must allow requests this large too.
   */
  public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  /**
   * The topic-level configs to create the topic with ({@code cleanup.policy}, {@code retention.ms},
   * {@code max.message.bytes}).
   */
  public Map<String, String> topicConfigs() {
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put("cleanup.policy", cleanupPolicy.configValue());
    configs.put("max.message.bytes", Integer.toString(MAX_MESSAGE_BYTES));
    retention.ifPresent(r -> configs.put("retention.ms", Long.toString(r.toMillis())));
    return configs;
  }

  @Override
  public String toString() {
    return name;
  }
}
