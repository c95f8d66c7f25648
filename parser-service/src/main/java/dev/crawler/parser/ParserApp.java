package dev.crawler.parser;

import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.hash.Sha256;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.streams.StreamsService;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.parser.domain.LanguageDetection;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.kafka.ImportLoop;
import dev.crawler.parser.streams.ParserTopology;
import dev.crawler.parser.tika.TikaImporter;
import dev.crawler.schemas.TopicSpec;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parser service: settings → topology → Kafka Streams, and beside it the file import loop on a
 * thread of its own (its forked import processes started on the first file); shutdown hook.
 */
public final class ParserApp implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(ParserApp.class);

  private final StreamsService streams;
  private final ImportLoop imports;
  private final Thread importThread;
  private final TikaImporter importer;

  private ParserApp(
      StreamsService streams, ImportLoop imports, Thread importThread, TikaImporter importer) {
    this.streams = streams;
    this.imports = imports;
    this.importThread = importThread;
    this.importer = importer;
  }

  /** Starts the parser; returns at once (the instance joins its groups in the background). */
  public static ParserApp start(ParserConfig config) {
    Sha256.implementation(); // loads the native digest now rather than on the first page
    // the language profiles (a second of CPU) load while the service joins its group
    Thread profiles = new Thread(LanguageDetection::shared, "language-profiles");
    profiles.setDaemon(true);
    profiles.start();
    StreamsService streams =
        StreamsService.start(
            config,
            ParserTopology.build(config.topics(), config.settings(), CrawlMetrics.registry()));
    TikaImporter importer = TikaImporter.start(config.importSettings());
    int processes = config.getInt(ParserConfig.IMPORT_PROCESSES_CONFIG);
    ImportLoop imports =
        new ImportLoop(
            new KafkaConsumer<>(
                consumerProperties(config, processes),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer()),
            () ->
                new KafkaProducer<>(
                    producerProperties(config),
                    new ByteArraySerializer(),
                    new ByteArraySerializer()),
            config.topics(),
            importer,
            new PageParser(config.settings()),
            CrawlMetrics.registry(),
            processes,
            InstantSource.system());
    Thread thread = new Thread(imports, "file-import-loop");
    thread.start();
    return new ParserApp(streams, imports, thread, importer);
  }

  private static String applicationId(ParserConfig config) {
    return config.getString(StreamsServiceConfig.APPLICATION_ID_CONFIG);
  }

  private static Map<String, Object> consumerProperties(ParserConfig config, int processes) {
    Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, applicationId(config) + "-imports");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    // one file per import process at a time: a poll's records are imported side by side
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, processes);
    long timeout = config.getLong(ParserConfig.IMPORT_TIMEOUT_MS_CONFIG);
    properties.put(
        ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
        (int) Math.max(300_000L, 3 * timeout + 120_000L));
    properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.putIfAbsent(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    config.groupLiveness().forEach(properties::putIfAbsent);
    String instanceId = config.getString(StreamsServiceConfig.INSTANCE_ID_CONFIG).strip();
    if (!instanceId.isEmpty()) {
      properties.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId + "-imports");
    }
    return properties;
  }

  private static Map<String, Object> producerProperties(ParserConfig config) {
    Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    properties.put(
        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
        applicationId(config) + "-imports-" + UUID.randomUUID());
    properties.put(
        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
        config.getInt(StreamsServiceConfig.TRANSACTION_TIMEOUT_MS_CONFIG));
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicSpec.MAX_MESSAGE_BYTES);
    return properties;
  }

  @Override
  public String name() {
    return streams.name();
  }

  @Override
  public boolean isRunning() {
    return streams.isRunning() && importThread.isAlive();
  }

  /** Not alive when Kafka Streams is not ({@link StreamsService}), or the import loop stopped. */
  @Override
  public Optional<String> livenessProblem() {
    Optional<String> problem = streams.livenessProblem();
    if (problem.isPresent() || importThread.isAlive()) {
      return problem;
    }
    return Optional.of(
        "the file import loop stopped"
            + imports.failure().map(failure -> ": " + failure).orElse(""));
  }

  @Override
  public List<HealthCheck> readinessChecks() {
    return streams.readinessChecks();
  }

  @Override
  public void bindMetrics(MeterRegistry registry) {
    streams.bindMetrics(registry);
  }

  @Override
  public void close() {
    imports.close();
    try {
      importThread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    importer.close();
    streams.close();
    LOG.debug("parser and its file imports stopped");
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
