package dev.crawler.fetcher.kafka;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * Work handed to the fetch loop's thread by other threads (HTTP completions, Kafka's
 * acknowledgements): the loop owns every piece of fetcher state, so whatever changes it runs there.
 * Submitting wakes the loop out of its poll.
 */
final class LoopTasks {

  private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
  private final Consumer<?, ?> consumer;
  private volatile boolean isHandingOver;

  LoopTasks(Consumer<?, ?> consumer) {
    this.consumer = consumer;
  }

  /** Queues a task for the loop's thread. Thread-safe. */
  void submit(Runnable task) {
    tasks.add(task);
    if (!isHandingOver) {
      // during a hand-over the loop is in the rebalance callback and takes tasks itself
      consumer.wakeup();
    }
  }

  /** Runs every queued task (the loop's thread). */
  void runAll() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
    }
  }

  /**
   * Runs the next task, waiting for one up to {@code timeoutMillis}; returns false when interrupted
   * (the interrupt is kept).
   */
  boolean runNext(long timeoutMillis) {
    try {
      Runnable task = tasks.poll(timeoutMillis, TimeUnit.MILLISECONDS);
      if (task != null) {
        task.run();
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** While handing over, the loop's thread waits in the rebalance callback: no wake-ups. */
  void handingOver(boolean isHandingOver) {
    this.isHandingOver = isHandingOver;
  }
}
