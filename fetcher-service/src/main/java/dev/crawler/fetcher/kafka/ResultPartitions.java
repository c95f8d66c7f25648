package dev.crawler.fetcher.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * Which partition of {@code crawl.fetch-results} a page's result goes to: chosen by its URL, so the
 * pages of one origin spread over every partition and are parsed side by side by as many parser
 * tasks. The record's key stays the origin (the topic's contract); the parser keeps no state per
 * origin, and every record the parser writes is keyed, and so partitioned, by origin again. One URL
 * always goes to the same partition, so the results of one URL stay in order.
 *
 * <p>The partition count is asked of the producer on the first result and kept: partitions added to
 * the topic later are used after a restart. While the count cannot be learnt (the broker has not
 * answered within the producer's {@code max.block.ms}, or a test's producer knows no topics), the
 * producer's own partitioner places the record by its key. Thread-safe.
 */
final class ResultPartitions {

  private final Producer<byte[], byte[]> producer;
  private final String topic;
  private volatile int count;

  ResultPartitions(Producer<byte[], byte[]> producer, String topic) {
    this.producer = producer;
    this.topic = topic;
  }

  /** The partition for the result of this URL, or null to leave it to the producer. */
  @Nullable Integer of(String url) {
    int partitions = count();
    if (partitions == 0) {
      return null;
    }
    return partitionOf(url, partitions);
  }

  /**
   * The partition of {@code partitions} a URL's result goes to: Kafka's hash of its UTF-8 bytes.
   */
  static int partitionOf(String url, int partitions) {
    return Utils.toPositive(Utils.murmur2(url.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  private int count() {
    int known = count;
    if (known == 0) {
      try {
        known = producer.partitionsFor(topic).size();
      } catch (KafkaException e) {
        return 0; // asked again with the next result
      }
      count = known;
    }
    return known;
  }
}
