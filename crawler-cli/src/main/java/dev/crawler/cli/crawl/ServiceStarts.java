package dev.crawler.cli.crawl;

import dev.crawler.common.RunningService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** How {@code crawler crawl} starts its services. */
final class ServiceStarts {

  private ServiceStarts() {}

  /**
   * Starts the services at once, each on a thread of its own (each spends its start-up waiting on
   * the broker); every one that started is handed to {@code started} (to be stopped with the
   * crawl), even when another failed.
   */
  static void startAll(List<Callable<RunningService>> starts, Consumer<RunningService> started) {
    startAll(starts, List.of(), () -> {}, started);
  }

  /**
   * Starts the services at once, as {@link #startAll(List, Consumer)} does, and runs {@code
   * whenFirstStarted} as soon as every one of {@code first} has started, while the others may still
   * be starting; not at all when one of {@code first} failed.
   *
   * @param first the services that must run before {@code whenFirstStarted} (the frontier and the
   *     fetcher, which the first request needs)
   * @param others the services started beside them
   */
  static void startAll(
      List<Callable<RunningService>> first,
      List<Callable<RunningService>> others,
      Runnable whenFirstStarted,
      Consumer<RunningService> started) {
    List<Callable<RunningService>> starts = new ArrayList<>(first);
    starts.addAll(others);
    ExecutorService starting = Executors.newFixedThreadPool(starts.size());
    try {
      List<Future<RunningService>> futures = new ArrayList<>();
      for (Callable<RunningService> start : starts) {
        futures.add(starting.submit(start));
      }
      RuntimeException failure = collect(futures.subList(0, first.size()), started, null);
      if (failure == null) {
        try {
          whenFirstStarted.run();
        } catch (RuntimeException e) {
          failure = e; // the others are still collected, to be stopped with the crawl
        }
      }
      failure = collect(futures.subList(first.size(), futures.size()), started, failure);
      if (failure != null) {
        throw failure;
      }
    } finally {
      starting.shutdown();
    }
  }

  /**
   * Hands every service that started to {@code started}; returns the first failure, {@code failure}
   * when there was one already.
   */
  private static @Nullable RuntimeException collect(
      List<Future<RunningService>> services,
      Consumer<RunningService> started,
      @Nullable RuntimeException failure) {
    for (Future<RunningService> service : services) {
      try {
        started.accept(service.get());
      } catch (ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof RuntimeException cause
                  ? cause
                  : new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IllegalStateException("interrupted while starting the services", e);
      }
    }
    return failure;
  }
}
