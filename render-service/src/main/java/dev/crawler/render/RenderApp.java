package dev.crawler.render;

import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.FetchPath;
import dev.crawler.fetcher.domain.FetchPaths;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.fetcher.http.JettyPageFetcher;
import dev.crawler.fetcher.kafka.FetchLoop;
import dev.crawler.fetcher.kafka.FetchTier;
import dev.crawler.render.browser.Renderer;
import dev.crawler.render.fetch.BrowserPageFetcher;
import dev.crawler.render.fetch.PageResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
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
public final class RenderApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(RenderApp.class);

  private final FetchLoop loop;
  private final Thread thread;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> producer;
  private final Renderer renderer;

  private RenderApp(
      FetchLoop loop,
      KafkaConsumer<byte[], byte[]> consumer,
      KafkaProducer<byte[], byte[]> producer,
      Renderer renderer) {
    this.loop = loop;
    this.thread = new Thread(loop, "render-loop");
    this.consumer = consumer;
    this.producer = producer;
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
    JettyPageFetcher http = null;
    try {
      http = config.httpFetcher().build();
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
      ClientSettings clients = ClientSettings.of(config);
      String instance = config.instanceId();
      KafkaConsumer<byte[], byte[]> consumer =
          ClientSettings.rawConsumer(
              clients.groupConsumer(
                  config.getString(RenderConfig.GROUP_ID_CONFIG),
                  config.hasInstanceId() ? Optional.of(instance) : Optional.empty()));
      KafkaProducer<byte[], byte[]> producer = ClientSettings.rawProducer(clients.producer());
      FetchTier tier = FetchTier.renderers(config.topics());
      FetchLoop loop =
          new FetchLoop(
              new FetchLoop.Clients(
                  consumer,
                  ClientSettings.rawConsumer(
                      clients.reader("render-politeness-reader-" + instance)),
                  producer,
                  ClientSettings.rawConsumer(clients.reader("render-control-reader-" + instance))),
              config.topics(),
              tier,
              fetcher,
              new RobotsPolicy(
                  config.userAgent(),
                  config.duration(FetcherConfig.ROBOTS_TTL_MS_CONFIG),
                  config.getInt(FetcherConfig.ROBOTS_MAX_SITEMAPS_CONFIG)),
              new FetchLoop.Settings(
                  FetchOptions.defaults(
                      FetchOptions.DEFAULTS.delayMillis(),
                      config.getBoolean(FetcherConfig.OBEY_ROBOTS_CONFIG)),
                  config.getInt(RenderConfig.PAGES_AT_ONCE_CONFIG),
                  config.getInt(FetcherConfig.MAX_PENDING_REQUESTS_CONFIG),
                  config.duration(FetcherConfig.COMMIT_INTERVAL_MS_CONFIG),
                  config.duration(FetcherConfig.MAX_HOLD_MS_CONFIG),
                  config.duration(FetcherConfig.BACKOFF_QUIET_MS_CONFIG),
                  config.duration(FetcherConfig.HANDOVER_TIMEOUT_MS_CONFIG),
                  instance,
                  config.getBoolean(FetcherConfig.TDMREP_CONFIG)),
              InstantSource.system(),
              new CrawlLog(tier.service(), CrawlMetrics.registry()),
              CrawlMetrics.registry());
      RenderApp app = new RenderApp(loop, consumer, producer, renderer);
      app.thread.start();
      LOG.info(
          "render service started with {} as {}",
          config.renderSettings().browser(),
          config.userAgent());
      return app;
    } catch (RuntimeException e) {
      renderer.close();
      if (http != null) {
        http.close();
      }
      throw e;
    }
  }

  /**
   * Runs the render service until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("render", args, RenderConfig::new, RenderApp::start);
  }

  @Override
  public String name() {
    return "render";
  }

  @Override
  public boolean isRunning() {
    return loop.isRunning();
  }

  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            "render-loop",
            () -> loop.isRunning() ? Optional.empty() : Optional.of("the render loop has stopped")),
        KafkaConnection.check(consumer::metrics));
  }

  /**
   * The Kafka clients' metrics (the lag of {@code crawl.render-requests}, which the autoscaler
   * reads); the render tier's own are in the service's registry from its start ({@link
   * RenderMetrics}).
   */
  @Override
  @SuppressWarnings("resource") // bound for the life of the clients
  public void bindMetrics(MeterRegistry registry) {
    new KafkaClientMetrics(consumer).bindTo(registry);
    new KafkaClientMetrics(producer).bindTo(registry);
  }

  /** Stops the loop (finishing the pages in flight), then the browser. */
  @Override
  public void close() {
    loop.stop();
    try {
      loop.awaitStopped(Duration.ofSeconds(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    renderer.close(); // the loop closed it with its fetcher, unless it did not stop in time
    LOG.info("render service stopped");
  }
}
