package dev.crawler.fetcher;

import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.FetchPaths;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.fetcher.kafka.FetchLoop;
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

/** The fetcher service: settings, clients, the fetch loop on its thread, shutdown hook. */
public final class FetcherApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(FetcherApp.class);

  private final FetchLoop loop;
  private final Thread thread;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> producer;

  private FetcherApp(
      FetchLoop loop,
      KafkaConsumer<byte[], byte[]> consumer,
      KafkaProducer<byte[], byte[]> producer) {
    this.loop = loop;
    this.thread = new Thread(loop, "fetch-loop");
    this.consumer = consumer;
    this.producer = producer;
  }

  /** Starts the fetcher; returns at once. */
  public static FetcherApp start(FetcherConfig config) {
    if (!config.getBoolean(FetcherConfig.OBEY_ROBOTS_CONFIG)) {
      LOG.warn(
          "fetcher.obey.robots=false: robots.txt is NOT fetched and NOT obeyed; every site's rules are ignored");
    }
    ClientSettings clients = ClientSettings.of(config);
    String instance = config.instanceId();
    PageFetcher fetcher = FetchPaths.http(config.httpFetcher().build());
    // static membership: restarted under its name, the fetcher takes its partitions back
    // without a rebalance
    KafkaConsumer<byte[], byte[]> consumer =
        ClientSettings.rawConsumer(
            clients.groupConsumer(
                config.getString(FetcherConfig.GROUP_ID_CONFIG),
                config.hasInstanceId() ? Optional.of(instance) : Optional.empty()));
    KafkaProducer<byte[], byte[]> producer = ClientSettings.rawProducer(clients.producer());
    FetchLoop loop =
        new FetchLoop(
            new FetchLoop.Clients(
                consumer,
                ClientSettings.rawConsumer(clients.reader("fetcher-politeness-reader-" + instance)),
                producer,
                ClientSettings.rawConsumer(clients.reader("fetcher-control-reader-" + instance))),
            config.topics(),
            fetcher,
            new RobotsPolicy(
                config.userAgent(),
                config.duration(FetcherConfig.ROBOTS_TTL_MS_CONFIG),
                config.getInt(FetcherConfig.ROBOTS_MAX_SITEMAPS_CONFIG)),
            new FetchLoop.Settings(
                FetchOptions.defaults(
                    FetchOptions.DEFAULTS.delayMillis(),
                    config.getBoolean(FetcherConfig.OBEY_ROBOTS_CONFIG)),
                config.getInt(FetcherConfig.MAX_CONNECTIONS_CONFIG),
                config.getInt(FetcherConfig.MAX_PENDING_REQUESTS_CONFIG),
                config.duration(FetcherConfig.COMMIT_INTERVAL_MS_CONFIG),
                config.duration(FetcherConfig.MAX_HOLD_MS_CONFIG),
                config.duration(FetcherConfig.BACKOFF_QUIET_MS_CONFIG),
                config.duration(FetcherConfig.HANDOVER_TIMEOUT_MS_CONFIG),
                config.instanceId(),
                config.getBoolean(FetcherConfig.TDMREP_CONFIG)),
            InstantSource.system(),
            new CrawlLog(FetchLoop.SERVICE, CrawlMetrics.registry()),
            CrawlMetrics.registry());
    FetcherApp app = new FetcherApp(loop, consumer, producer);
    app.thread.start();
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

  @Override
  public String name() {
    return "fetcher";
  }

  @Override
  public boolean isRunning() {
    return loop.isRunning();
  }

  /** Ready while the fetch loop runs and the clients are connected to Kafka. */
  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            "fetch-loop",
            () -> loop.isRunning() ? Optional.empty() : Optional.of("the fetch loop has stopped")),
        KafkaConnection.check(consumer::metrics));
  }

  /**
   * The Kafka clients' metrics: consumer lag of the fetch requests ({@code
   * kafka_consumer_fetch_manager_records_lag_max}), send rates.
   */
  @Override
  @SuppressWarnings("resource") // bound for the life of the clients
  public void bindMetrics(MeterRegistry registry) {
    new KafkaClientMetrics(consumer).bindTo(registry);
    new KafkaClientMetrics(producer).bindTo(registry);
  }

  @Override
  public void close() {
    loop.stop();
    try {
      loop.awaitStopped(Duration.ofSeconds(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("fetcher stopped");
  }
}
