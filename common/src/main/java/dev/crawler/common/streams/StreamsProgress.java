package dev.crawler.common.streams;

import dev.crawler.common.ops.KafkaConnection;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * A Kafka Streams instance's progress and pending work, read from its own metrics (no request to
 * the brokers): what {@link dev.crawler.common.recovery.ProgressWatch} watches.
 */
final class StreamsProgress {

  private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";
  private static final String THREAD_GROUP = "stream-thread-metrics";

  private StreamsProgress() {}

  /**
   * A counter that grows while the instance works: records processed by its stream threads, and
   * records consumed by every consumer of the instance (the main consumers, which also move over
   * transaction markers; the restore consumer, while state is restored; the global one).
   */
  static long progress(Map<MetricName, ? extends Metric> metrics) {
    double total = 0;
    for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
      MetricName name = entry.getKey();
      boolean counts =
          (name.name().equals("process-total") && name.group().equals(THREAD_GROUP))
              || (name.name().equals("records-consumed-total")
                  && name.group().equals(FETCH_GROUP)
                  && !name.tags().containsKey("topic")); // the client's total, not per topic too
      if (counts && entry.getValue().metricValue() instanceof Double value && !value.isNaN()) {
        total += value;
      }
    }
    return (long) total;
  }

  /**
   * What the instance has to do: a rebalance (and the restoration that comes with it) under way,
   * records fetched that its tasks have not processed and committed yet, or records behind on a
   * partition it reads; empty when it is idle, or when it is cut off from every broker (it then
   * waits for Kafka, which no restart would mend).
   *
   * @param threads the instance's stream threads ({@code KafkaStreams#metadataForLocalThreads}):
   *     each active task's last fetched and committed offsets
   */
  static Optional<String> work(
      KafkaStreams.State state,
      Map<MetricName, ? extends Metric> metrics,
      Collection<ThreadMetadata> threads) {
    if (KafkaConnection.connections(metrics) == 0) {
      return Optional.empty();
    }
    if (state == KafkaStreams.State.REBALANCING) {
      return Optional.of("Kafka Streams is REBALANCING (or restoring state)");
    }
    if (state != KafkaStreams.State.RUNNING) {
      return Optional.empty();
    }
    for (ThreadMetadata thread : threads) {
      for (TaskMetadata task : thread.activeTasks()) {
        for (Map.Entry<TopicPartition, Long> fetched : task.endOffsets().entrySet()) {
          long committed = task.committedOffsets().getOrDefault(fetched.getKey(), -1L);
          if (fetched.getValue() >= 0 && fetched.getValue() >= committed) {
            // the task holds records it has not committed: a stream thread stuck on one shows here
            return Optional.of(
                "records up to offset "
                    + fetched.getValue()
                    + " of "
                    + fetched.getKey()
                    + " fetched, committed up to "
                    + committed);
          }
        }
      }
    }
    double lag = 0;
    String where = "";
    for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
      MetricName name = entry.getKey();
      String client = name.tags().getOrDefault("client-id", "");
      if (name.name().equals("records-lag")
          && name.group().equals(FETCH_GROUP)
          && name.tags().containsKey("partition")
          && client.endsWith("-consumer")
          && !client.endsWith("-restore-consumer")
          && !client.endsWith("-global-consumer")
          && entry.getValue().metricValue() instanceof Double value
          && value > lag) {
        lag = value;
        where = name.tags().get("topic") + "-" + name.tags().get("partition");
      }
    }
    return lag > 0
        ? Optional.of(String.format(Locale.ROOT, "%.0f records behind on %s", lag, where))
        : Optional.empty();
  }
}
