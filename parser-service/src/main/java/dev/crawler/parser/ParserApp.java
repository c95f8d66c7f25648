package dev.crawler.parser;

import dev.crawler.common.HeadStart;
import dev.crawler.common.RunningService;
import dev.crawler.common.ServiceLauncher;
import dev.crawler.common.hash.Sha256;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.ServiceThread;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.streams.StreamsService;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.parser.domain.LanguageDetection;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.kafka.ImportLoop;
import dev.crawler.parser.streams.ParserTopology;
import dev.crawler.parser.tika.TikaImporter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
  private final ServiceThread importThread;
  private final TikaImporter importer;

  private ParserApp(
      StreamsService streams,
      ImportLoop imports,
      ServiceThread importThread,
      TikaImporter importer) {
    this.streams = streams;
    this.imports = imports;
    this.importThread = importThread;
    this.importer = importer;
  }

  /**
   * Starts the parser; returns at once (the instance joins its groups in the background). A start
   * that fails stops what it had started.
   */
  public static ParserApp start(ParserConfig config) {
    Sha256.implementation(); // loads the native digest now rather than on the first page
    // the language tables (0.1 s of CPU) are read while the service joins its group
    HeadStart.run("language-tables", LanguageDetection::shared);
    StreamsService streams =
        StreamsService.start(
            config,
            ParserTopology.build(config.topics(), config.settings(), CrawlMetrics.registry()));
    TikaImporter importer = null;
    try {
      importer = TikaImporter.start(config.importSettings());
      int processes = config.getInt(ParserConfig.IMPORT_PROCESSES_CONFIG);
      ClientSettings clients = ClientSettings.of(config);
      ImportLoop imports =
          new ImportLoop(
              ClientSettings.rawConsumer(importConsumer(config, clients, processes)),
              () ->
                  ClientSettings.rawProducer(
                      clients.transactionalProducer(
                          applicationId(config) + "-imports-" + UUID.randomUUID(),
                          config.getInt(StreamsServiceConfig.TRANSACTION_TIMEOUT_MS_CONFIG))),
              config.topics(),
              importer,
              new PageParser(config.settings()),
              CrawlMetrics.registry(),
              processes,
              InstantSource.system());
      return new ParserApp(
          streams, imports, ServiceThread.start("file-import-loop", imports), importer);
    } catch (RuntimeException e) {
      if (importer != null) {
        importer.close();
      }
      streams.close();
      throw e;
    }
  }

  private static String applicationId(ParserConfig config) {
    return config.getString(StreamsServiceConfig.APPLICATION_ID_CONFIG);
  }

  private static Map<String, Object> importConsumer(
      ParserConfig config, ClientSettings clients, int processes) {
    String instanceId = config.getString(StreamsServiceConfig.INSTANCE_ID_CONFIG).strip();
    Map<String, Object> properties =
        clients.groupConsumer(
            applicationId(config) + "-imports",
            instanceId.isEmpty() ? Optional.empty() : Optional.of(instanceId + "-imports"));
    // one file per import process at a time: a poll's records are imported side by side
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, processes);
    long timeout = config.getLong(ParserConfig.IMPORT_TIMEOUT_MS_CONFIG);
    properties.put(
        ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
        (int) Math.max(300_000L, 3 * timeout + 120_000L));
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
    return streams.livenessProblem().or(() -> importThread.livenessProblem(imports.failure()));
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
    // the pages' streams and the file imports share nothing: they stop side by side, each
    // waiting on its own group's leave and its clients' last requests
    ServiceThread streamsClosing = ServiceThread.start("parser-close", streams::close);
    try {
      imports.close();
      importThread.join(Duration.ofSeconds(30));
      importer.close();
    } finally {
      streamsClosing.join(Duration.ofMinutes(1));
    }
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
