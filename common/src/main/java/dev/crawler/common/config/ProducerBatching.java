package dev.crawler.common.config;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How every service's producer batches records unless a {@code kafka.*} setting says otherwise. The
 * crawler's records are large (a fetched page is ~15 KB, more than Kafka's default 16 KB batch
 * holds with another) and come steadily, so records wait up to {@value #LINGER_MS} ms to travel
 * together: fewer produce requests for the broker to handle, and lz4 compresses a batch of pages of
 * one site far better than one page alone. The wait is well below the commit interval, so it adds
 * no latency to a hop.
 */
public final class ProducerBatching {

  /** How long a record waits for others to join its batch, in milliseconds. */
  public static final int LINGER_MS = 20;

  /** The largest batch per partition, in bytes: room for ~16 pages. */
  public static final int BATCH_SIZE = 256 * 1024;

  private ProducerBatching() {}

  /** The producer settings, keyed by their Kafka names. */
  public static Map<String, Object> defaults() {
    return Map.of(
        ProducerConfig.LINGER_MS_CONFIG, LINGER_MS,
        ProducerConfig.BATCH_SIZE_CONFIG, BATCH_SIZE,
        ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
  }
}
