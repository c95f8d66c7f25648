package dev.crawler.committer;

import dev.crawler.committer.streams.CommitterTopology;
import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.streams.StreamsService;

/** The committer service: settings, topology, Kafka Streams, shutdown hook. */
public final class CommitterApp {

  private CommitterApp() {}

  /** Starts the committer; returns at once. */
  public static RunningService start(CommitterConfig config) {
    return StreamsService.start(
        config,
        CommitterTopology.build(config.topics(), config.settings(), CrawlMetrics.registry()));
  }

  /**
   * Runs the committer until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("committer", args, CommitterConfig::new, CommitterApp::start);
  }
}
