package dev.crawler.embedded.junit;

import dev.crawler.embedded.EmbeddedKafkaBroker;
import dev.crawler.embedded.EmbeddedSchemaRegistry;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka cluster and a schema registry for integration tests, started once per test JVM by {@link
 * KafkaClusterExtension} and shared by every test class. Tests stay apart by naming: {@link
 * #topics(String)} gives each test its own topics, {@link #uniqueId(String)} its own application
 * and group ids.
 *
 * <p>The broker runs in Testcontainers' Kafka container when a Docker engine is reachable and in
 * this JVM otherwise (or always, with {@code -Dcrawler.test.kafka=embedded}). The registry is
 * always the embedded Apicurio child process. Thread-safe.
 */
public final class TestCluster implements AutoCloseable {

  /** Partitions of each test topic: more than one, so that tests see partitioning at work. */
  public static final int PARTITIONS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(TestCluster.class);
  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final Path dataDir;
  private final KafkaBackend kafka;
  private final EmbeddedSchemaRegistry registry;
  private final HttpSchemaRegistryClient registryClient;
  private final Admin admin;
  private final String runId;

  private TestCluster(Path dataDir, KafkaBackend kafka, EmbeddedSchemaRegistry registry) {
    this.dataDir = dataDir;
    this.kafka = kafka;
    this.registry = registry;
    this.registryClient = new HttpSchemaRegistryClient(registry.url());
    this.admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    this.runId = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
  }

  static TestCluster start() {
    long started = System.nanoTime();
    Path dataDir;
    try {
      dataDir = Files.createTempDirectory("crawler-it-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(dataDir);
    KafkaBackend kafka;
    try {
      kafka =
          useContainer()
              ? ContainerKafka.start()
              : new InJvmKafka(EmbeddedKafkaBroker.start(dataDir, PARTITIONS));
    } catch (RuntimeException e) {
      registry.close();
      throw e;
    }
    LOG.info(
        "Test cluster ready in {} ms: {} at {}, schema registry at {}",
        Duration.ofNanos(System.nanoTime() - started).toMillis(),
        kafka.describe(),
        kafka.bootstrapServers(),
        registry.url());
    return new TestCluster(dataDir, kafka, registry);
  }

  private static boolean useContainer() {
    String choice = System.getProperty("crawler.test.kafka", "auto").toLowerCase(Locale.ROOT);
    if (choice.equals("embedded")) {
      return false;
    }
    try {
      return ContainerKafka.isDockerAvailable();
    } catch (LinkageError e) {
      return false; // Testcontainers is not on this module's test class path
    }
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The registry's Confluent-compatible API root. */
  public String schemaRegistryUrl() {
    return registry.url();
  }

  /**
   * A registry client shared by the tests (its caches are per client, so sharing saves requests).
   */
  public HttpSchemaRegistryClient registryClient() {
    return registryClient;
  }

  /** The registry process, for tests that check on it. */
  public EmbeddedSchemaRegistry registry() {
    return registry;
  }

  /** An admin client on the cluster; owned by the cluster, do not close it. */
  public Admin admin() {
    return admin;
  }

  /** A directory for the test's own files (state stores, crawl data), removed with the cluster. */
  public Path newDirectory(String name) {
    try {
      return Files.createDirectories(dataDir.resolve(uniqueId(name)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An id no other test of this run has: for application ids, consumer groups, transactional ids.
   */
  public String uniqueId(String base) {
    return base + "-" + runId + "-" + SEQUENCE.incrementAndGet();
  }

  /**
   * A catalogue of topics of the test's own, created on the cluster with {@link #PARTITIONS}
   * partitions.
   */
  public Topics topics(String testName) {
    Topics topics =
        Topics.create(uniqueId(testName.replaceAll("[^a-zA-Z0-9_-]", "-")) + ".", registryClient);
    new TopicInstaller(admin, Duration.ofSeconds(30)).install(topics.all(), PARTITIONS, (short) 1);
    return topics;
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
    try {
      kafka.close();
    } finally {
      registry.close();
      deleteRecursively(dataDir);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("Could not delete {}: {}", dir, e.toString());
    }
  }

  private record InJvmKafka(EmbeddedKafkaBroker broker) implements KafkaBackend {
    @Override
    public String bootstrapServers() {
      return broker.bootstrapServers();
    }

    @Override
    public String describe() {
      return "in-JVM Kafka broker (KRaft)";
    }

    @Override
    public void close() {
      broker.close();
    }
  }
}
