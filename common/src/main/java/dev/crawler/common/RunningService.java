package dev.crawler.common;

/**
 * A started service (frontier, fetcher, parser or committer) as its owner sees it: the process's main
 * method, or the {@code crawler} command running all four in one JVM.
 */
public interface RunningService extends AutoCloseable {

  /** The service's name, as in crawl-log entries: frontier, fetcher, parser, committer. */
  String name();

  /** Whether the service is processing (for a Streams service: in state RUNNING or REBALANCING). */
  boolean isRunning();

  /** Stops the service, finishing or handing back in-flight work; returns when it has stopped. */
  @Override
  void close();
}
