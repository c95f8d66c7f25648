package dev.crawler.fetcher;

import dev.crawler.common.ServiceLauncher;
import dev.crawler.fetcher.domain.FetchPaths;
import dev.crawler.fetcher.kafka.FetchTier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The fetcher service: the fetchers' loop over the HTTP client, on its own thread. */
public final class FetcherApp extends FetchService {

  private static final Logger LOG = LoggerFactory.getLogger(FetcherApp.class);

  private FetcherApp(FetcherConfig config) {
    super(
        "fetcher",
        config.getString(FetcherConfig.GROUP_ID_CONFIG),
        config,
        FetchTier.fetchers(config.topics()),
        FetchPaths.http(config.httpFetcher().build()),
        config.getInt(FetcherConfig.MAX_CONNECTIONS_CONFIG));
  }

  /** Starts the fetcher; returns at once. A start that fails stops what it had started. */
  public static FetcherApp start(FetcherConfig config) {
    if (!config.getBoolean(FetcherConfig.OBEY_ROBOTS_CONFIG)) {
      LOG.warn(
          "fetcher.obey.robots=false: robots.txt is NOT fetched and NOT obeyed; every site's rules are ignored");
    }
    FetcherApp app = new FetcherApp(config);
    LOG.info("fetcher started as {}", config.userAgent());
    return app;
  }

  /**
   * Runs the fetcher until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("fetcher", args, FetcherConfig::new, FetcherApp::start);
  }
}
