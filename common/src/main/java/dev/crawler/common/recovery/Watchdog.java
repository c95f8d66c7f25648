package dev.crawler.common.recovery;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a service's checks on a daemon thread of its own, one after the other, at a fixed delay. A
 * check that fails is logged (once for as long as it fails the same way) and run again next time.
 */
public final class Watchdog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);

  /** A check; it may block on Kafka for a bounded time. */
  @FunctionalInterface
  public interface Check {
    void run() throws Exception;
  }

  private final ScheduledExecutorService executor;
  private String lastFailure = "";

  private Watchdog(String name, Duration delay, Check check) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, name);
              thread.setDaemon(true);
              return thread;
            });
    executor.scheduleWithFixedDelay(
        () -> runOnce(name, check), delay.toMillis(), delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Starts running {@code check} every {@code delay} (between the end of one run and the start of
   * the next) on a thread named {@code name}.
   */
  public static Watchdog start(String name, Duration delay, Check check) {
    return new Watchdog(name, delay, check);
  }

  private void runOnce(String name, Check check) {
    try {
      check.run();
      lastFailure = "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      String failure = String.valueOf(e);
      if (!Objects.equals(failure, lastFailure)) {
        LOG.warn("{}: check failed, tried again later: {}", name, failure);
        lastFailure = failure;
      }
    }
  }

  /** Stops the checks; a running one is interrupted. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
