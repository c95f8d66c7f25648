package dev.crawler.common;

import dev.crawler.common.ops.HealthCheck;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;

/**
 * A started service (frontier, fetcher, parser or committer) as its owner sees it: the process's
 * main method, or the {@code crawler} command running all four in one JVM.
 */
public interface RunningService extends AutoCloseable {

  /** The service's name, as in crawl-log entries: frontier, fetcher, parser, committer. */
  String name();

  /** Whether the service is processing (for a Streams service: in state RUNNING or REBALANCING). */
  boolean isRunning();

  /**
   * Why the service cannot work any more, empty while it can: it failed for good, or it makes no
   * progress though it has work (a Kubernetes liveness probe then restarts the pod). Starting and
   * rebalancing are alive.
   */
  default Optional<String> livenessProblem() {
    return isRunning() ? Optional.empty() : Optional.of(name() + " has stopped");
  }

  /**
   * What must hold for the service to be ready: connected to Kafka, its loop or Streams running.
   */
  default List<HealthCheck> readinessChecks() {
    return List.of();
  }

  /** Registers the service's own meters (its Kafka clients' metrics among them) in a registry. */
  default void bindMetrics(MeterRegistry registry) {}

  /** Stops the service, finishing or handing back in-flight work; returns when it has stopped. */
  @Override
  void close();
}
