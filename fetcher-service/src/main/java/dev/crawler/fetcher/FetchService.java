package dev.crawler.fetcher;

import dev.crawler.common.RunningService;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.fetcher.kafka.FetchLoop;
import dev.crawler.fetcher.kafka.FetchTier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service that runs one tier's fetch loop ({@link FetchTier}) on a thread of its own: the fetcher
 * over HTTP, and the render service over a headless browser. It builds the loop's Kafka clients
 * from the service's settings (a static group member under its instance id, so a restarted instance
 * takes its partitions back without a rebalance), is ready while the loop runs and its consumer is
 * connected, and stops by stopping the loop, which closes the clients and the page fetcher.
 *
 * <p>A start that fails closes what it had made, the page fetcher it was given included.
 */
public class FetchService implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(FetchService.class);

  private final String name;
  private final FetchLoop loop;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> producer;

  /**
   * Builds the loop and starts its thread.
   *
   * @param name the service's name, in its health and log lines
   * @param groupId the consumer group of the service's instances, which share the origins
   * @param tier whose requests the loop reads and how its results are marked
   * @param fetcher how pages are loaded; owned from here on
   * @param pagesAtOnce how many pages the loop has in flight at most, all origins together
   */
  protected FetchService(
      String name,
      String groupId,
      FetcherConfig config,
      FetchTier tier,
      PageFetcher fetcher,
      int pagesAtOnce) {
    this.name = name;
    List<AutoCloseable> made = new ArrayList<>();
    made.add(fetcher::close);
    try {
      ClientSettings clients = ClientSettings.of(config);
      String instance = config.instanceId();
      this.consumer =
          ClientSettings.rawConsumer(
              clients.groupConsumer(
                  groupId, config.hasInstanceId() ? Optional.of(instance) : Optional.empty()));
      made.add(consumer);
      this.producer = ClientSettings.rawProducer(clients.producer());
      made.add(producer);
      KafkaConsumer<byte[], byte[]> politeness =
          ClientSettings.rawConsumer(clients.reader(name + "-politeness-reader-" + instance));
      made.add(politeness);
      KafkaConsumer<byte[], byte[]> control =
          ClientSettings.rawConsumer(clients.reader(name + "-control-reader-" + instance));
      made.add(control);
      this.loop =
          new FetchLoop(
              new FetchLoop.Clients(consumer, politeness, producer, control),
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
                  pagesAtOnce,
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
      new Thread(loop, name + "-loop").start();
    } catch (RuntimeException e) {
      closeAll(made, e);
      throw e;
    }
  }

  private static void closeAll(List<AutoCloseable> made, RuntimeException failure) {
    for (int i = made.size() - 1; i >= 0; i--) {
      try {
        made.get(i).close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isRunning() {
    return loop.isRunning();
  }

  /** Ready while the loop runs and the clients are connected to Kafka. */
  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            name + "-loop",
            () ->
                loop.isRunning()
                    ? Optional.empty()
                    : Optional.of("the " + name + " loop has stopped")),
        KafkaConnection.check(consumer::metrics));
  }

  /**
   * The Kafka clients' metrics: the lag of the tier's requests ({@code
   * kafka_consumer_fetch_manager_records_lag_max}, which the autoscaler reads), send rates.
   */
  @Override
  @SuppressWarnings("resource") // bound for the life of the clients
  public void bindMetrics(MeterRegistry registry) {
    new KafkaClientMetrics(consumer).bindTo(registry);
    new KafkaClientMetrics(producer).bindTo(registry);
  }

  /** Stops the loop, finishing the pages in flight; the loop closes its clients and fetcher. */
  @Override
  public void close() {
    loop.stop();
    try {
      loop.awaitStopped(Duration.ofSeconds(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("{} stopped", name);
  }
}
