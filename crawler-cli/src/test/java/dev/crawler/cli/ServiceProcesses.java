package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.committer.CommitterApp;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.common.streams.StateStoreLibrary;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.EmbeddedSchemaRegistry;
import dev.crawler.embedded.KafkaNodeCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.DocumentEvent;
import dev.crawler.fetcher.FetcherApp;
import dev.crawler.frontier.FrontierApp;
import dev.crawler.parser.ParserApp;
import dev.crawler.render.RenderApp;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Services run as pods run them: each its own JVM ({@code java -cp crawler-cli.jar …App}),
 * configured only by {@code CRAWLER_*} variables, with a management port of its own and its output
 * in {@code target/it-logs/<test>/}. Every process still running is killed when the test ends.
 */
final class ServiceProcesses implements AfterEachCallback {

  /** A started service process. */
  record Service(String name, Process process, int port, Path log) {}

  /** Where the services find Kafka and the schema registry. */
  record Endpoints(String bootstrapServers, String schemaRegistryUrl) {

    static Endpoints of(EmbeddedCluster cluster) {
      return new Endpoints(cluster.bootstrapServers(), cluster.schemaRegistryUrl());
    }

    /** The crawler's topic catalogue, with a client of this registry. */
    Topics topics() {
      return Topics.create(new HttpSchemaRegistryClient(schemaRegistryUrl));
    }
  }

  /**
   * Kafka as separate node processes (each killable with SIGKILL) and a schema registry, with the
   * crawler's topics (4 partitions, as replicated as the cluster allows).
   */
  record NodeCluster(KafkaNodeCluster kafka, EmbeddedSchemaRegistry registry)
      implements AutoCloseable {

    static NodeCluster start(Path dir, int nodes) {
      EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(dir);
      KafkaNodeCluster kafka;
      try {
        kafka = KafkaNodeCluster.start(dir.resolve("kafka"), nodes, 4, jar().toString());
      } catch (RuntimeException e) {
        registry.close();
        throw e;
      }
      NodeCluster cluster = new NodeCluster(kafka, registry);
      new TopicInstaller(kafka.admin(), Duration.ofSeconds(60))
          .install(cluster.endpoints().topics().all(), 4, kafka.replicas());
      return cluster;
    }

    Endpoints endpoints() {
      return new Endpoints(kafka.bootstrapServers(), registry.url());
    }

    @Override
    public void close() {
      try {
        kafka.close();
      } finally {
        registry.close();
      }
    }
  }

  private final String owner;
  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * @param owner names the directory of the logs (the test class)
   */
  ServiceProcesses(Class<?> owner) {
    this.owner = owner.getSimpleName();
  }

  /**
   * Starts {@code main} with these variables (later maps win) and no other {@code CRAWLER_*} one.
   */
  @SafeVarargs
  final Service start(String name, Class<?> main, Map<String, String>... variables)
      throws IOException {
    int port = freePort();
    Path jar = jar();
    Path logs = Path.of("target", "it-logs", owner);
    Files.createDirectories(logs);
    Path log =
        logs.resolve(
            name
                + "-"
                + System.currentTimeMillis()
                + ".log"); // kept after the test, for reading when it fails
    ProcessBuilder builder =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            // small, C1 only, one collector thread: a test's service runs for minutes, beside a
            // dozen other JVMs on two cores (C2 and G1's threads in each cost more than they save)
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            // RocksDB's library linked from one copy, not unpacked into a temporary file that a
            // killed service leaves behind
            "-D" + StateStoreLibrary.DIRECTORY_PROPERTY + "=" + jar.resolveSibling("native"),
            "-cp",
            jar.toString(),
            main.getName());
    builder.environment().keySet().removeIf(variable -> variable.startsWith("CRAWLER_"));
    for (Map<String, String> map : variables) {
      builder.environment().putAll(map);
    }
    builder.environment().put("CRAWLER_MANAGEMENT_PORT", Integer.toString(port));
    if (main == FetcherApp.class || main == RenderApp.class) {
      // the test sites listen on 127.0.0.1, a loopback address the fetcher denies by default
      builder.environment().putIfAbsent("CRAWLER_FETCHER_ADDRESS_ALLOW", "127.0.0.1");
    }
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    Process process = builder.start();
    synchronized (processes) {
      processes.add(process);
    }
    return new Service(name, process, port, log);
  }

  /**
   * Starts a service process named like its pod ({@code frontier-1}, {@code fetcher-2}): the
   * service from the name, its instance id ({@code instanceId}) and, for a Streams service, a state
   * directory of its own under {@code stateDirs}; the frontier's politeness delay; {@code extra}
   * variables on top ({@code FETCHER_*} ones only for fetchers, the others for the Streams
   * services).
   */
  Service startPod(
      String name,
      String instanceId,
      Path stateDirs,
      long delayMillis,
      Map<String, String> common,
      Map<String, String> streamsExtra,
      Map<String, String> fetcherExtra)
      throws IOException {
    Class<?> main =
        switch (name.replaceAll("-\\d+$", "")) {
          case "frontier" -> FrontierApp.class;
          case "parser" -> ParserApp.class;
          case "committer" -> CommitterApp.class;
          default -> FetcherApp.class;
        };
    Map<String, String> own = new HashMap<>(common);
    if (main == FetcherApp.class) {
      own.put("CRAWLER_FETCHER_INSTANCE_ID", instanceId);
      own.putAll(fetcherExtra);
    } else {
      own.put("CRAWLER_INSTANCE_ID", instanceId);
      own.put("CRAWLER_STATE_DIR", stateDirs.resolve(name).toString());
      own.putAll(streamsExtra);
    }
    if (main == FrontierApp.class) {
      own.put("CRAWLER_FRONTIER_DELAY_MS", Long.toString(delayMillis));
    }
    return start(name, main, own);
  }

  /**
   * A GET of the service's management port; a service that died fails the test with its log's name.
   */
  HttpResponse<String> get(Service service, String path) throws IOException, InterruptedException {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      assertThat(service.process().isAlive())
          .as(service.name() + " is running; its log: " + service.log())
          .isTrue();
      throw e;
    }
  }

  /** Waits (up to 2 minutes) until the service says it is ready. */
  void awaitReady(Service service) {
    await(service.name() + " ready")
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptionsInstanceOf(IOException.class)
        .until(() -> get(service, "/health/ready").statusCode() == 200);
  }

  /** The crawler's jar, built before the integration tests run: the class path of every process. */
  static Path jar() {
    return Path.of("target", "crawler-cli.jar").toAbsolutePath();
  }

  /** An embedded cluster on {@code dir} with the crawler's topics (4 partitions each). */
  static EmbeddedCluster cluster(Path dir) {
    EmbeddedCluster cluster = EmbeddedCluster.start(dir, 4);
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
      new TopicInstaller(admin, Duration.ofSeconds(30))
          .install(Endpoints.of(cluster).topics().all(), 4, (short) 1);
    }
    return cluster;
  }

  /** The variables every service needs to reach the cluster. */
  static Map<String, String> clientVariables(EmbeddedCluster cluster) {
    return clientVariables(Endpoints.of(cluster));
  }

  /** The variables every service needs to reach the cluster. */
  static Map<String, String> clientVariables(Endpoints cluster) {
    return Map.of(
        "CRAWLER_KAFKA_BOOTSTRAP_SERVERS",
        cluster.bootstrapServers(),
        "CRAWLER_SCHEMA_REGISTRY_URL",
        cluster.schemaRegistryUrl());
  }

  /** Seeds the crawl with each origin's home page, as {@code crawler seed} does. */
  static void seed(EmbeddedCluster cluster, List<String> origins) {
    seed(Endpoints.of(cluster), origins);
  }

  /** Seeds the crawl with each origin's home page, as {@code crawler seed} does. */
  static void seed(Endpoints cluster, List<String> origins) {
    List<String> arguments = new ArrayList<>(List.of("seed"));
    origins.forEach(origin -> arguments.add(origin + "/"));
    arguments.addAll(
        List.of(
            "--bootstrap-servers",
            cluster.bootstrapServers(),
            "--schema-registry",
            cluster.schemaRegistryUrl()));
    assertThat(CrawlerCli.run(arguments.toArray(String[]::new))).isZero();
  }

  /** Every document event of crawl.documents so far, the last per URL. */
  static Map<String, DocumentEvent> readDocuments(EmbeddedCluster cluster, Topics topics)
      throws IOException {
    return readDocuments(Endpoints.of(cluster), topics);
  }

  /** Every document event of crawl.documents so far, the last per URL. */
  static Map<String, DocumentEvent> readDocuments(Endpoints cluster, Topics topics)
      throws IOException {
    Map<String, DocumentEvent> documents = new HashMap<>();
    TopicReader.read(
        ClusterOptions.readerProperties(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers())),
        topics.documents(),
        ClusterOptions.READ_BOUND,
        record -> {
          if (record.value() != null) {
            documents.put(record.key(), record.value());
          }
          return true;
        },
        problem -> {
          throw new AssertionError("undecodable document event: " + problem);
        });
    return documents;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    List<Process> started;
    synchronized (processes) {
      started = List.copyOf(processes);
    }
    started.forEach(Process::destroyForcibly);
    for (Process process : started) {
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
