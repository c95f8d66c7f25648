package dev.crawler.common.streams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each state store restoration of an instance: which store and changelog partition, how many
 * records, how long. A task that moves to an instance holding a standby replica of it restores only
 * what the standby had not read yet; one that moves anywhere else restores its whole changelog. The
 * lines say which happened, and how long the task took to move.
 */
final class RestoreLog implements StateRestoreListener {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreLog.class);

  private final String service;
  private final Map<TopicPartition, Long> started = new ConcurrentHashMap<>();

  RestoreLog(String service) {
    this.service = service;
  }

  @Override
  public void onRestoreStart(
      TopicPartition partition, String store, long startingOffset, long endingOffset) {
    started.put(partition, System.nanoTime());
  }

  @Override
  public void onBatchRestored(
      TopicPartition partition, String store, long batchEndOffset, long numRestored) {}

  @Override
  public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    Long start = started.remove(partition);
    long millis = start == null ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    LOG.info(
        "{}: restored store {} from {}: {} records in {} ms",
        service,
        store,
        partition,
        totalRestored,
        millis);
  }
}
