package dev.crawler.common.ops;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether Kafka clients are connected, read from their own metrics ({@code connection-count} of the
 * consumer, producer and admin clients), so a probe costs no request to the brokers.
 */
public final class KafkaConnection {

  private KafkaConnection() {}

  /**
   * A check that holds while the clients have at least one open connection to a broker.
   *
   * @param metrics the clients' metrics ({@code consumer::metrics}, {@code KafkaStreams::metrics})
   */
  public static HealthCheck check(Supplier<Map<MetricName, ? extends Metric>> metrics) {
    return new HealthCheck(
        "kafka",
        () ->
            connections(metrics.get()) > 0
                ? Optional.empty()
                : Optional.of("no connection to any Kafka broker"));
  }

  /** The open connections to brokers that these metrics report. */
  public static double connections(Map<MetricName, ? extends Metric> metrics) {
    double count = 0;
    for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
      if (entry.getKey().name().equals("connection-count")
          && entry.getValue().metricValue() instanceof Double value) {
        count += value;
      }
    }
    return count;
  }
}
