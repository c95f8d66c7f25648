package dev.crawler.parser;

import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.hash.Sha256;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.streams.StreamsService;
import dev.crawler.parser.streams.ParserTopology;

/** The parser service: settings → topology → Kafka Streams → shutdown hook. */
public final class ParserApp {

  private ParserApp() {}

  /** Starts the parser; returns at once (the instance joins its group in the background). */
  public static RunningService start(ParserConfig config) {
    Sha256.implementation(); // loads the native digest now rather than on the first page
    return StreamsService.start(
        config, ParserTopology.build(config.topics(), config.settings(), CrawlMetrics.registry()));
  }

  /**
   * Runs the parser until the process is stopped. A bad setting prints {@code error: <message>} on
   * stderr and exits with code 2 ({@link ServiceLauncher}).
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("parser", args, ParserConfig::new, ParserApp::start);
  }
}
