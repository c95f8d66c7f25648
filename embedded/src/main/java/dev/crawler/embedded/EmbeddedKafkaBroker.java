package dev.crawler.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka cluster in this JVM, in KRaft mode (the node is broker and controller),
 * listening on free ports of 127.0.0.1 only.
 *
 * <p>Its data directory survives: starting again on the same directory resumes the cluster (topics,
 * records, consumer offsets, transactions) instead of formatting it anew. Not thread-safe; start
 * and close it from one thread.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
  private static final int NODE_ID = 1;
  private static final String CONTROLLER_LISTENER = "CONTROLLER";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final Path logDir;
  private boolean closed;

  private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers, Path logDir) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.logDir = logDir;
  }

  /**
   * Starts a broker on {@code dataDir} (created when missing; formatted only when it holds no
   * cluster yet) and waits until it answers requests.
   *
   * @param dataDir where the broker keeps its log segments and metadata
   * @param defaultPartitions partitions of topics created without a count (Kafka Streams' internal
   *     topics follow their source topics instead)
   */
  public static EmbeddedKafkaBroker start(Path dataDir, int defaultPartitions) {
    return start(dataDir, defaultPartitions, FreePorts.next(), FreePorts.next());
  }

  /**
   * {@link #start(Path, int)} on these ports of 127.0.0.1 (the broker's and the controller's
   * listeners).
   */
  public static EmbeddedKafkaBroker start(
      Path dataDir, int defaultPartitions, int brokerPort, int controllerPort) {
    Path logDir = dataDir.resolve("kafka").toAbsolutePath();
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the broker's data directory " + logDir, e);
    }
    Properties props = brokerProperties(logDir, brokerPort, controllerPort, defaultPartitions);
    if (isFormatted(logDir)) {
      LOG.info("Resuming the Kafka cluster in {}", logDir);
    } else {
      format(logDir);
    }
    KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
    long started = System.nanoTime();
    server.startup();
    String bootstrap = "127.0.0.1:" + brokerPort;
    EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, bootstrap, logDir);
    try {
      broker.awaitReady();
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    LOG.info(
        "Kafka broker ready at {} in {} ms",
        bootstrap,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return broker;
  }

  /** {@code host:port} of the broker listener, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The directory the broker keeps its logs in. */
  public Path logDir() {
    return logDir;
  }

  /** Shuts the broker down cleanly and waits for it; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.shutdown();
    server.awaitShutdown();
    LOG.info("Kafka broker at {} stopped", bootstrapServers);
  }

  private static Properties brokerProperties(
      Path logDir, int brokerPort, int controllerPort, int defaultPartitions) {
    Properties props = new Properties();
    props.putAll(
        Map.ofEntries(
            Map.entry("process.roles", "broker,controller"),
            Map.entry("node.id", Integer.toString(NODE_ID)),
            Map.entry("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort),
            Map.entry(
                "listeners",
                "PLAINTEXT://127.0.0.1:"
                    + brokerPort
                    + ","
                    + CONTROLLER_LISTENER
                    + "://127.0.0.1:"
                    + controllerPort),
            Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort),
            Map.entry(
                "listener.security.protocol.map",
                "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT"),
            Map.entry("controller.listener.names", CONTROLLER_LISTENER),
            Map.entry("inter.broker.listener.name", "PLAINTEXT"),
            Map.entry("log.dirs", logDir.toString()),
            Map.entry("num.partitions", Integer.toString(defaultPartitions)),
            // one node: every internal topic has one replica, and few partitions so it starts fast
            Map.entry("offsets.topic.replication.factor", "1"),
            Map.entry("offsets.topic.num.partitions", "5"),
            Map.entry("transaction.state.log.replication.factor", "1"),
            Map.entry("transaction.state.log.min.isr", "1"),
            Map.entry("transaction.state.log.num.partitions", "5"),
            // a killed stateless service's open transaction is aborted within a second of its
            // timeout, not ten
            Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
            Map.entry("share.coordinator.state.topic.replication.factor", "1"),
            Map.entry("share.coordinator.state.topic.min.isr", "1"),
            Map.entry("group.initial.rebalance.delay.ms", "0"),
            // topics come from the catalogue; a typo must not create one silently
            Map.entry("auto.create.topics.enable", "false"),
            Map.entry("log.cleaner.dedupe.buffer.size", Long.toString(16L * 1024 * 1024)),
            Map.entry("log.segment.bytes", Integer.toString(64 * 1024 * 1024))));
    return props;
  }

  private static boolean isFormatted(Path logDir) {
    return Files.exists(logDir.resolve("meta.properties"));
  }

  private static void format(Path logDir) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
      new Formatter()
          .setPrintStream(print)
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toString()))
          .setMetadataLogDirectory(logDir.toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName(CONTROLLER_LISTENER)
          .run();
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot format Kafka storage in " + logDir + ": " + e.getMessage(), e);
    }
    LOG.info(
        "Formatted Kafka storage in {}: {}",
        logDir,
        output.toString(StandardCharsets.UTF_8).strip());
  }

  private void awaitReady() {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READY_TIMEOUT.toMillis());
    try (Admin admin = Admin.create(props)) {
      admin.describeCluster().nodes().get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the Kafka broker", e);
    } catch (Exception e) {
      throw new IllegalStateException(
          "the Kafka broker at " + bootstrapServers + " did not become ready: " + e, e);
    }
  }
}
