package dev.crawler.common.kafka;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread a service starts and owns: joined when the service closes, and a liveness problem when
 * it ends before the service asked it to ({@link #livenessProblem()}), so a service whose
 * background work died says so on {@code /health/live} instead of only in its log.
 *
 * <p>Thread-safe.
 */
public final class ServiceThread {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceThread.class);

  private final String name;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile @Nullable Throwable failure;

  private ServiceThread(String name, Runnable body) {
    this.name = name;
    this.thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (RuntimeException | Error e) {
                failure = e;
                LOG.error("{} failed and stopped", name, e);
              }
            },
            name);
  }

  /** Starts {@code body} on a new thread called {@code name}. */
  public static ServiceThread start(String name, Runnable body) {
    ServiceThread started = new ServiceThread(name, body);
    started.thread.start();
    return started;
  }

  /** Whether the thread is still running. */
  public boolean isAlive() {
    return thread.isAlive();
  }

  /**
   * Why the thread is a problem: it ended (failed, or returned) before {@link #join} asked it to;
   * empty while it runs or after it was stopped on purpose.
   *
   * @param failureOfBody what the body itself says it failed of, when it catches its own failures
   */
  public Optional<String> livenessProblem(Optional<Throwable> failureOfBody) {
    if (thread.isAlive() || stopping) {
      return Optional.empty();
    }
    Optional<Throwable> cause = failureOfBody.or(() -> Optional.ofNullable(failure));
    return Optional.of(name + " stopped" + cause.map(e -> ": " + e).orElse(""));
  }

  /** {@link #livenessProblem(Optional)} of a body that lets its failures escape. */
  public Optional<String> livenessProblem() {
    return livenessProblem(Optional.empty());
  }

  /**
   * Waits for the thread to end, at most {@code timeout}, after the caller asked its body to stop;
   * returns whether it ended. From then on its end is no liveness problem.
   */
  public boolean join(Duration timeout) {
    stopping = true;
    try {
      thread.join(Math.max(1, timeout.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("{} did not stop within {}", name, timeout);
      return false;
    }
    return true;
  }
}
