package dev.crawler.render;

import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.fetcher.FetchService;
import dev.crawler.fetcher.domain.FetchPath;
import dev.crawler.fetcher.domain.FetchPaths;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.http.JettyPageFetcher;
import dev.crawler.fetcher.kafka.FetchTier;
import dev.crawler.render.browser.Renderer;
import dev.crawler.render.fetch.BrowserPageFetcher;
import dev.crawler.render.fetch.PageResources;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The render service: the fetch loop of the render tier ({@link FetchTier#renderers}) over a
 * headless browser. It reads {@code crawl.render-requests} (keyed by origin, one owner per origin
 * as the fetchers), keeps each origin's politeness, loads each page in the browser with every
 * request of the page made by the fetcher's HTTP client (its address guard, credentials and
 * archive), and writes the results, marked rendered, to {@code crawl.fetch-results}; offsets are
 * committed only past results written. The browser dies with the service's process.
 */
public final class RenderApp extends FetchService {

  private static final Logger LOG = LoggerFactory.getLogger(RenderApp.class);

  private final Renderer renderer;

  private RenderApp(RenderConfig config, PageFetcher fetcher, Renderer renderer) {
    super(
        "render",
        config.getString(RenderConfig.GROUP_ID_CONFIG),
        config,
        FetchTier.renderers(config.topics()),
        fetcher,
        config.getInt(RenderConfig.PAGES_AT_ONCE_CONFIG));
    this.renderer = renderer;
  }

  /**
   * Starts the render service; returns at once. A start that fails stops what it had started.
   *
   * @throws org.apache.kafka.common.config.ConfigException when no browser is found
   */
  public static RenderApp start(RenderConfig config) {
    Renderer renderer = new Renderer(config.renderSettings(), InstantSource.system());
    RenderMetrics metrics = new RenderMetrics(CrawlMetrics.registry(), renderer);
    JettyPageFetcher http;
    try {
      http = config.httpFetcher().build();
    } catch (RuntimeException e) {
      renderer.close();
      throw e;
    }
    boolean otherOrigins = config.getBoolean(RenderConfig.OTHER_ORIGINS_CONFIG);
    PageFetcher fetcher =
        FetchPaths.http(http)
            .with(
                FetchPath.BROWSER,
                BrowserPageFetcher.perPage(
                    renderer,
                    http,
                    call -> PageResources.of(call, otherOrigins),
                    metrics::rendered));
    RenderApp app = new RenderApp(config, fetcher, renderer); // closes both if it fails
    LOG.info(
        "render service started with {} as {}",
        config.renderSettings().browser(),
        config.userAgent());
    return app;
  }

  /**
   * Runs the render service until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("render", args, RenderConfig::new, RenderApp::start);
  }

  /** Stops the loop (finishing the pages in flight), then the browser. */
  @Override
  public void close() {
    super.close();
    renderer.close(); // the loop closed it with its fetcher, unless it did not stop in time
  }
}
