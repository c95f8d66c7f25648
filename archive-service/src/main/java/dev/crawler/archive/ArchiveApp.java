package dev.crawler.archive;

import dev.crawler.archive.kafka.ArchiveLoop;
import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.config.ProducerBatching;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import dev.crawler.schemas.TopicSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The archive writer: settings, clients, the archive loop on its thread, shutdown hook. */
public final class ArchiveApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(ArchiveApp.class);

  private final ArchiveLoop loop;
  private final Thread thread;
  private final KafkaConsumer<byte[], byte[]> consumer;

  private ArchiveApp(ArchiveLoop loop, KafkaConsumer<byte[], byte[]> consumer) {
    this.loop = loop;
    this.consumer = consumer;
    this.thread = new Thread(loop, "archive-loop");
  }

  /** Starts the archive writer; returns at once. */
  public static ArchiveApp start(ArchiveConfig config) {
    Map<String, Object> consumerProperties = new HashMap<>(config.kafkaProperties());
    consumerProperties.put(
        ConsumerConfig.GROUP_ID_CONFIG, config.getString(ArchiveConfig.GROUP_ID_CONFIG));
    consumerProperties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumerProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerProperties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    consumerProperties.putIfAbsent(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    // a poll's records are written before the next poll; files close between polls
    consumerProperties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
    config.groupLiveness().forEach(consumerProperties::putIfAbsent);
    Map<String, Object> producerProperties = new HashMap<>(config.kafkaProperties());
    producerProperties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
    ProducerBatching.defaults().forEach(producerProperties::putIfAbsent);
    producerProperties.putIfAbsent(
        ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicSpec.MAX_MESSAGE_BYTES);
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            consumerProperties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    ArchiveLoop loop =
        new ArchiveLoop(
            consumer,
            new KafkaProducer<>(
                producerProperties, new ByteArraySerializer(), new ByteArraySerializer()),
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
    ArchiveApp app = new ArchiveApp(loop, consumer);
    app.thread.start();
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
    if (thread.isAlive()) {
      return Optional.empty();
    }
    return Optional.of(
        "the archive loop stopped" + loop.failure().map(failure -> ": " + failure).orElse(""));
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
    try {
      thread.join(TimeUnit.SECONDS.toMillis(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("archive writer stopped");
  }
}
