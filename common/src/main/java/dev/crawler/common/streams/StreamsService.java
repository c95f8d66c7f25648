package dev.crawler.common.streams;

import dev.crawler.common.RunningService;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams service running: one {@link KafkaStreams} instance over a topology. A stream
 * thread that dies of an unexpected error is replaced, so one bad moment does not stop the service
 * (records that fail are already sent to the dead-letter topic by {@link DeadLetterHandler}).
 */
public final class StreamsService implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(StreamsService.class);

  /** How long closing waits for in-flight transactions to commit. */
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  private final String name;
  private final KafkaStreams streams;

  private StreamsService(String name, KafkaStreams streams) {
    this.name = name;
    this.streams = streams;
  }

  /** Starts the topology; returns at once (the instance joins its group in the background). */
  public static StreamsService start(String name, Topology topology, Properties properties) {
    KafkaStreams streams = new KafkaStreams(topology, properties);
    streams.setUncaughtExceptionHandler(
        error -> {
          LOG.error("{}: stream thread failed, replacing it", name, error);
          return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    streams.start();
    LOG.info(
        "{} started: {}", name, topology.describe().subtopologies().size() + " sub-topologies");
    return new StreamsService(name, streams);
  }

  /** The running instance, for interactive queries of its stores. */
  public KafkaStreams streams() {
    return streams;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isRunning() {
    KafkaStreams.State state = streams.state();
    return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
  }

  @Override
  public boolean isAlive() {
    KafkaStreams.State state = streams.state();
    return state != KafkaStreams.State.ERROR
        && state != KafkaStreams.State.PENDING_ERROR
        && state != KafkaStreams.State.NOT_RUNNING;
  }

  /**
   * Ready when Kafka Streams is RUNNING (not starting, restoring or rebalancing) and connected to
   * Kafka.
   */
  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            "streams",
            () ->
                streams.state() == KafkaStreams.State.RUNNING
                    ? Optional.empty()
                    : Optional.of("Kafka Streams is " + streams.state())),
        KafkaConnection.check(streams::metrics));
  }

  /**
   * Every metric of Kafka Streams and its clients: consumer lag ({@code
   * kafka_consumer_fetch_manager_records_lag_max}), process rates, commit latency.
   */
  @Override
  @SuppressWarnings("resource") // bound for the life of the instance
  public void bindMetrics(MeterRegistry registry) {
    new KafkaStreamsMetrics(streams).bindTo(registry);
  }

  @Override
  public void close() {
    // leave the group now: the partitions go to the other instances, or to the next start of this
    // one,
    // without waiting for the session timeout (45 s) to notice this member is gone
    streams.close(
        CloseOptions.timeout(CLOSE_TIMEOUT)
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    LOG.info("{} stopped", name);
  }
}
