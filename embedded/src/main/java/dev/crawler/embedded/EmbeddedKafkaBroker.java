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
 * A Kafka node in this JVM, in KRaft mode (broker and controller at once), listening on 127.0.0.1
 * only: a single-node cluster of its own, or one node of a cluster ({@link KafkaNodeSettings}).
 *
 * <p>Its data directory survives: starting again on the same directory resumes the cluster (topics,
 * records, consumer offsets, transactions) instead of formatting it anew. Not thread-safe; start
 * and close it from one thread.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
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
    return start(
        KafkaNodeSettings.single(logDir, brokerPort, controllerPort, defaultPartitions),
        Uuid.randomUuid().toString(),
        true);
  }

  /**
   * Starts one node of a cluster: formats its log directory with the cluster's id when it holds no
   * cluster yet, and starts it.
   *
   * @param clusterId the cluster's id, used only to format a new log directory
   * @param awaitReady whether to wait until the node answers requests (a node of a cluster that
   *     lost its controller quorum answers only once the quorum is back)
   */
  public static EmbeddedKafkaBroker start(
      KafkaNodeSettings settings, String clusterId, boolean awaitReady) {
    Path logDir = settings.logDir().toAbsolutePath();
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the broker's data directory " + logDir, e);
    }
    if (isFormatted(logDir)) {
      LOG.info("Resuming the Kafka cluster in {}", logDir);
    } else {
      format(logDir, settings.nodeId(), clusterId);
    }
    KafkaRaftServer server =
        new KafkaRaftServer(KafkaConfig.fromProps(settings.brokerProperties(), false), Time.SYSTEM);
    long started = System.nanoTime();
    server.startup();
    String bootstrap = settings.bootstrapServer();
    EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, bootstrap, logDir);
    if (awaitReady) {
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
    }
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

  private static boolean isFormatted(Path logDir) {
    return Files.exists(logDir.resolve("meta.properties"));
  }

  private static void format(Path logDir, int nodeId, String clusterId) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
      new Formatter()
          .setPrintStream(print)
          .setNodeId(nodeId)
          .setClusterId(clusterId)
          .setDirectories(List.of(logDir.toString()))
          .setMetadataLogDirectory(logDir.toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName(KafkaNodeSettings.CONTROLLER_LISTENER)
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
