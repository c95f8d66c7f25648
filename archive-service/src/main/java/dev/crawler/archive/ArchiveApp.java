package dev.crawler.archive;

import dev.crawler.archive.kafka.ArchiveLoop;
import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.ServiceThread;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The archive writer: settings, clients, the archive loop on its thread, shutdown hook. */
public final class ArchiveApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(ArchiveApp.class);

  /**
   * How long a transaction of a writer that died holds back the readers of its dead letters, when
   * no restart under its name fences it: a transaction is open only while a file's offsets commit.
   */
  private static final int TRANSACTION_TIMEOUT_MS = 10_000;

  private final ArchiveLoop loop;
  private final ServiceThread thread;
  private final KafkaConsumer<byte[], byte[]> consumer;

  private ArchiveApp(
      ArchiveLoop loop, ServiceThread thread, KafkaConsumer<byte[], byte[]> consumer) {
    this.loop = loop;
    this.thread = thread;
    this.consumer = consumer;
  }

  /** Starts the archive writer; returns at once. */
  public static ArchiveApp start(ArchiveConfig config) {
    ClientSettings clients = ClientSettings.of(config);
    String group = config.getString(ArchiveConfig.GROUP_ID_CONFIG);
    Map<String, Object> consumerProperties = clients.groupConsumer(group, Optional.empty());
    // a poll's records are written before the next poll; files close between polls
    consumerProperties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
    KafkaConsumer<byte[], byte[]> consumer = ClientSettings.rawConsumer(consumerProperties);
    // one transactional id per writer: a writer restarted under its name fences the transaction
    // its predecessor left open at once
    String transactionalId = group + "-" + config.instanceId();
    ArchiveLoop loop =
        new ArchiveLoop(
            consumer,
            () ->
                ClientSettings.rawProducer(
                    clients.transactionalProducer(transactionalId, TRANSACTION_TIMEOUT_MS)),
            config.topics(),
            new ArchiveLoop.Settings(
                config.directory(),
                config.getString(ArchiveConfig.FILE_PREFIX_CONFIG),
                config.instanceId(),
                config.getLong(ArchiveConfig.FILE_MAX_BYTES_CONFIG),
                config.maxFileAge()),
            config.getBoolean(ArchiveConfig.OUTLINKS_CONFIG),
            CrawlMetrics.registry(),
            InstantSource.system());
    ArchiveApp app = new ArchiveApp(loop, ServiceThread.start("archive-loop", loop), consumer);
    LOG.info("archive writer started: WARC files in {}", config.directory().toAbsolutePath());
    return app;
  }

  /**
   * Runs the archive writer until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ServiceLauncher.launch("archive", args, ArchiveConfig::new, ArchiveApp::start);
  }

  @Override
  public String name() {
    return "archive";
  }

  /**
   * Waits until the writer has read every record before these end offsets of its topics (they are
   * then in its open file or in closed ones), at most {@code timeout}; returns whether it has.
   */
  public boolean awaitRead(Map<TopicPartition, Long> ends, Duration timeout)
      throws InterruptedException {
    return loop.awaitRead(ends, timeout);
  }

  @Override
  public boolean isRunning() {
    return thread.isAlive();
  }

  @Override
  public Optional<String> livenessProblem() {
    return thread.livenessProblem(loop.failure());
  }

  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            "archive-loop",
            () ->
                thread.isAlive() ? Optional.empty() : Optional.of("the archive loop has stopped")),
        KafkaConnection.check(consumer::metrics));
  }

  @Override
  @SuppressWarnings("resource") // bound for the life of the consumer
  public void bindMetrics(MeterRegistry registry) {
    new KafkaClientMetrics(consumer).bindTo(registry);
  }

  /** Stops the loop; the open file is closed and its offsets committed on the way out. */
  @Override
  public void close() {
    loop.close();
    thread.join(Duration.ofSeconds(60));
    LOG.info("archive writer stopped");
  }
}
