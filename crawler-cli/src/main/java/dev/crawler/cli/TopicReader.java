package dev.crawler.cli;

import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic the way a downstream consumer rebuilding its state does: every partition from
 * its start, committed records only, no consumer group and nothing committed. Undecodable records
 * are reported and skipped.
 */
public final class TopicReader {

  /** What is done with each record; answers whether to go on. */
  @FunctionalInterface
  public interface Handler<V> {
    boolean accept(ConsumerRecord<String, V> record) throws IOException;
  }

  private TopicReader() {}

  /**
   * Reads the topic from its start up to its end as it is when reading starts ({@code follow}
   * false), or on and on ({@code follow} true), until the handler answers false.
   *
   * @param kafka the consumer's connection settings (bootstrap servers and any client settings)
   * @param skipped told what was wrong with each undecodable record
   */
  public static <V> void read(
      Map<String, Object> kafka,
      TopicSpec<String, V> topic,
      boolean follow,
      Handler<V> handler,
      Consumer<String> skipped)
      throws IOException {
    RecordDecoder<String, V> decoder = new RecordDecoder<>(topic);
    Map<String, Object> properties = new HashMap<>(kafka);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic.name()).stream()
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (follow || partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<byte[], byte[]> raw : consumer.poll(Duration.ofMillis(200))) {
          ConsumerRecord<String, V> record;
          try {
            record = decoder.decode(raw);
          } catch (UndecodableRecordException e) {
            skipped.accept(e.getMessage());
            continue;
          }
          if (!handler.accept(record)) {
            return;
          }
        }
      }
    }
  }
}
