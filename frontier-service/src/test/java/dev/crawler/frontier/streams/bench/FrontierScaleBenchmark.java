package dev.crawler.frontier.streams.bench;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.FrontierApp;
import dev.crawler.frontier.FrontierConfig;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How the frontier scales with the number of URLs it knows (prints figures; not a test).
 *
 * <p>A real Kafka broker and schema registry start on 127.0.0.1 ({@link EmbeddedCluster}), the
 * catalogue's topics are created with {@value #PARTITIONS} partitions (the {@code crawler crawl}
 * default), and the frontier runs as it does in production: {@link FrontierApp}, exactly-once Kafka
 * Streams, one stream thread, its stores in RocksDB under a temporary directory. No fetcher runs.
 * One seed per origin ({@value #ORIGINS} origins {@code http://site<i>.bench.invalid/}, a reserved
 * name that is never resolved, let alone fetched) brings the origins into scope; then, step by
 * step, distinct links of depth 1 are written to {@code crawl.discovered} until the frontier knows
 * N of them, for each N of the arguments (default 10^4, 10^5, 10^6, 10^7). The steps add to the
 * same running frontier, so its stores grow from one step to the next.
 *
 * <p>The frontier's settings are the defaults a crawl would have: a politeness delay of one second,
 * so a window of two requests in flight per origin. With no fetcher to answer, the windows fill at
 * once and every other URL stays queued, the realistic shape of a big frontier; the lease timeout
 * is the longest allowed (a day) so that no request is released a second time during the run.
 *
 * <p>After each step it prints one row:
 *
 * <ul>
 *   <li><b>URLs/s</b>: the step's URLs divided by the time from its first record written until the
 *       frontier's consumer group has committed the end of every partition of {@code
 *       crawl.discovered} (committed offsets against read-committed end offsets, read with the
 *       Admin client as crawler-cli's {@code GroupLag} does; the resolution is the frontier's
 *       {@code commit.interval.ms} plus {@value #POLL_MILLIS} ms). Writing runs concurrently with
 *       deciding, on the same cores.
 *   <li><b>heap MB</b>: heap used after a full GC, of this whole JVM (the broker and the writer
 *       included, so compare rows rather than read one alone), and <b>(commit.)</b> the heap
 *       committed then;
 *   <li><b>RSS MB</b>: resident memory of this process ({@code VmRSS} of {@code /proc/self/status})
 *       once it stops falling after that GC: committed heap, RocksDB's native memory and the rest
 *       of the JVM;
 *   <li><b>memtab MB</b>: RocksDB's memtables summed over the frontier's stores (Kafka Streams'
 *       RocksDB metric {@code size-all-mem-tables}); <b>cache MB</b>: the block cache the stores
 *       share ({@code block-cache-usage}, the same cache seen from every store, so the largest
 *       figure, not their sum), which the memtables are charged to: the native memory bounded by
 *       {@code state.memory.mb};
 *   <li><b>state MB</b>, <b>state B/URL</b>: the bytes of the frontier's state directory (all its
 *       stores' RocksDB files) and those divided by the URLs the frontier knows (the links, the
 *       seeds and the origins' sitemap.xml URLs). Under exactly-once Kafka Streams does not flush
 *       the stores on commit, so a store reaches the disk only once its memtables fill: until then
 *       the figure is small and the data are in <b>memtab MB</b>;
 *   <li><b>queued</b>: URLs queued plus in flight as the frontier's stores report them, which must
 *       equal the URLs known: every URL written was decided and kept.
 * </ul>
 *
 * <p>A progress line goes to standard error every {@value #PROGRESS_SECONDS} s during a step. The
 * writer never holds more than {@value #MAX_UNACKNOWLEDGED} records that the broker has not
 * acknowledged, so 10^7 URLs take no more memory to write than 10^4. Run it after {@code mvn -B -q
 * -o install -DskipTests} at the root:
 *
 * <pre>{@code
 * mvn -q -o -pl frontier-service org.codehaus.mojo:exec-maven-plugin:3.6.2:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.crawler.frontier.streams.bench.FrontierScaleBenchmark -Dexec.args="10000 100000"
 * }</pre>
 *
 * <p>The JVM is Maven's; it grows its heap under the step's allocation pressure (up to a quarter of
 * the machine's memory by default), which RSS counts. For RSS figures that compare across steps,
 * fix the heap: {@code MAVEN_OPTS="-Xms1g -Xmx1g"}.
 *
 * <p>Arguments: the cumulative URL counts of the steps, increasing. The temporary directory (broker
 * log, registry, state) is deleted at the end.
 */
public final class FrontierScaleBenchmark {

  /** The steps' cumulative link counts when no argument is given. */
  static final List<Long> DEFAULT_STEPS = List.of(10_000L, 100_000L, 1_000_000L, 10_000_000L);

  /** Origins the links are spread across, round-robin. */
  static final int ORIGINS = 10;

  /** Partitions of every topic, as {@code crawler crawl} creates them by default. */
  static final int PARTITIONS = 4;

  /** Records written that the broker has not yet acknowledged, at most. */
  static final int MAX_UNACKNOWLEDGED = 10_000;

  /** The politeness delay: the default, which makes a window of two requests per origin. */
  static final long DELAY_MILLIS = 1_000;

  /** The longest lease timeout the frontier accepts: no lease expires during a run. */
  static final long LEASE_TIMEOUT_MILLIS = 86_400_000;

  static final String APPLICATION_ID = "bench-frontier";

  static final int PROGRESS_SECONDS = 10;

  /** The metric group of Kafka Streams' state stores, RocksDB's figures among them. */
  static final String ROCKSDB_METRICS_GROUP = "stream-state-metrics";

  static final int POLL_MILLIS = 100;

  /** How long a measurement waits at most for the resident set to stop falling after a GC. */
  static final Duration RSS_SETTLE_LIMIT = Duration.ofSeconds(5);

  /** A step fails when the frontier's committed offsets have not moved for this long. */
  static final Duration STALL_LIMIT = Duration.ofMinutes(2);

  private final Topics topics;
  private final FrontierApp frontier;
  private final KafkaProducer<String, DiscoveredUrl> producer;
  private final DiscoveredOffsets offsets;
  private final Path stateDir;
  private final List<String> originRoots = new ArrayList<>();
  private final List<String> originKeys = new ArrayList<>();
  private final AtomicReference<Exception> writeFailure = new AtomicReference<>();
  private final Semaphore unacknowledged = new Semaphore(MAX_UNACKNOWLEDGED);

  /**
   * URLs queued or in flight after the seeds were decided: the seeds and their sitemap.xml URLs.
   */
  private long seedUrls;

  /** The running step, for its progress lines. */
  private String stepLabel = "";

  private long stepStarted;
  private long committedAtStepStart;
  private long lastProgress;

  private FrontierScaleBenchmark(
      Topics topics,
      FrontierApp frontier,
      KafkaProducer<String, DiscoveredUrl> producer,
      DiscoveredOffsets offsets,
      Path stateDir) {
    this.topics = topics;
    this.frontier = frontier;
    this.producer = producer;
    this.offsets = offsets;
    this.stateDir = stateDir;
    for (int i = 0; i < ORIGINS; i++) {
      String root = "http://site" + i + ".bench.invalid/";
      originRoots.add(root);
      originKeys.add(Origin.keyOf(root));
    }
  }

  public static void main(String[] args) throws Exception {
    List<Long> steps = steps(args);
    Path dataDir = Files.createTempDirectory("frontier-scale-bench");
    try {
      run(steps, dataDir);
    } finally {
      deleteRecursively(dataDir);
    }
  }

  /** The steps of the arguments, or the defaults; each larger than the one before. */
  static List<Long> steps(String[] args) {
    if (args.length == 0) {
      return DEFAULT_STEPS;
    }
    List<Long> steps = new ArrayList<>();
    for (String arg : args) {
      long step = Long.parseLong(arg.strip().replace("_", ""));
      if (step <= (steps.isEmpty() ? 0 : steps.get(steps.size() - 1))) {
        throw new IllegalArgumentException(
            "the URL counts must be positive and increasing, got " + List.of(args));
      }
      steps.add(step);
    }
    return steps;
  }

  private static void run(List<Long> steps, Path dataDir) throws InterruptedException {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, PARTITIONS)) {
      Path stateDir = dataDir.resolve("state");
      FrontierConfig config = frontierConfig(cluster, stateDir);
      Topics topics = config.topics();
      try (Admin admin = Admin.create(config.kafkaProperties())) {
        new TopicInstaller(admin, Duration.ofSeconds(60))
            .install(topics.all(), PARTITIONS, (short) 1);
        DiscoveredOffsets offsets =
            new DiscoveredOffsets(admin, APPLICATION_ID, topics.discovered());
        try (FrontierApp frontier = FrontierApp.start(config);
            KafkaProducer<String, DiscoveredUrl> producer = producer(config, topics.discovered())) {
          new FrontierScaleBenchmark(topics, frontier, producer, offsets, stateDir).measure(steps);
        }
        measureRestore(config, admin, stateDir);
      }
    }
  }

  /**
   * How long a frontier task takes to move to an instance without a standby replica of it: the
   * frontier stopped, its state directory deleted, a new instance started on the same changelogs;
   * the time until Kafka Streams is RUNNING again (every store restored), against the bytes and
   * records of the changelogs. Prints one line.
   */
  private static void measureRestore(FrontierConfig config, Admin admin, Path stateDir)
      throws InterruptedException {
    deleteRecursively(stateDir);
    long bytes = changelogBytes(admin);
    long started = System.nanoTime();
    try (FrontierApp frontier = FrontierApp.start(config)) {
      while (frontier.streamsService().streams().state() != KafkaStreams.State.RUNNING) {
        if (frontier.livenessProblem().isPresent()) {
          throw new IllegalStateException("the frontier stopped while restoring");
        }
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "restore without a standby: %.0f MB of changelogs in %.1f s (%.1f MB/s, %.0f s per GB),"
              + " state directory %.0f MB after%n",
          bytes / 1e6,
          seconds,
          bytes / 1e6 / seconds,
          seconds / (bytes / 1e9),
          directoryBytes(stateDir) / 1e6);
    }
  }

  /** The bytes on disk of the frontier's changelog topics (its stores' backups). */
  private static long changelogBytes(Admin admin) throws InterruptedException {
    try {
      long total = 0;
      for (var broker : admin.describeLogDirs(List.of(1)).allDescriptions().get().values()) {
        for (var dir : broker.values()) {
          for (var replica : dir.replicaInfos().entrySet()) {
            String topic = replica.getKey().topic();
            if (topic.startsWith(APPLICATION_ID + "-") && topic.endsWith("-changelog")) {
              total += replica.getValue().size();
            }
          }
        }
      }
      return total;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot describe the broker's log directories", e);
    }
  }

  /**
   * The frontier as a crawl would run it, on the embedded cluster, its state under {@code
   * stateDir}.
   */
  private static FrontierConfig frontierConfig(EmbeddedCluster cluster, Path stateDir) {
    Map<String, String> settings = new HashMap<>();
    settings.put(ServiceConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    settings.put(ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG, cluster.schemaRegistryUrl());
    settings.put(StreamsServiceConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
    settings.put(StreamsServiceConfig.STATE_DIR_CONFIG, stateDir.toString());
    settings.put(StreamsServiceConfig.STREAM_THREADS_CONFIG, "1");
    settings.put(FrontierConfig.DELAY_MS_CONFIG, Long.toString(DELAY_MILLIS));
    settings.put(FrontierConfig.LEASE_TIMEOUT_MS_CONFIG, Long.toString(LEASE_TIMEOUT_MILLIS));
    return new FrontierConfig(settings);
  }

  /** An idempotent producer that batches as the services' producers do. */
  private static KafkaProducer<String, DiscoveredUrl> producer(
      FrontierConfig config, TopicSpec<String, DiscoveredUrl> topic) {
    Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    return new KafkaProducer<>(
        properties, topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  private void measure(List<Long> steps) throws InterruptedException {
    System.out.printf(
        Locale.ROOT,
        "%d cores, %s %s, max heap %d MB%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20);
    startStep("seeds");
    writeSeeds();
    awaitDecided(ORIGINS);
    seedUrls = frontierQueued().orElse(2L * ORIGINS);
    System.out.printf(
        Locale.ROOT,
        "frontier running, %d origins in scope in %.1f s; %d partitions, 1 stream thread, delay %d ms, no fetcher%n",
        ORIGINS,
        (System.nanoTime() - stepStarted) / 1e9,
        PARTITIONS,
        DELAY_MILLIS);
    printHeader();
    printRow(measureRow(0, 0, 0));
    long known = 0;
    for (long target : steps) {
      startStep(String.format(Locale.ROOT, "N=%,d", target));
      writeLinks(known, target);
      awaitDecided(target - known);
      double seconds = (System.nanoTime() - stepStarted) / 1e9;
      printRow(measureRow(target, target - known, seconds));
      known = target;
    }
  }

  /** One seed per origin, so that the origins are in scope before their links come. */
  private void writeSeeds() throws InterruptedException {
    Instant now = Instant.now();
    for (int i = 0; i < ORIGINS; i++) {
      send(
          originKeys.get(i),
          DiscoveredUrl.newBuilder()
              .setUrl(originRoots.get(i))
              .setDepth(0)
              .setKind(UrlKind.SEED)
              .setDiscoveredAt(now)
              .build());
    }
    producer.flush();
    checkWrites();
  }

  /**
   * Writes the links numbered {@code from} (inclusive) to {@code to} (exclusive), round-robin over
   * the origins.
   */
  private void writeLinks(long from, long to) throws InterruptedException {
    for (long n = from; n < to; n++) {
      int origin = (int) (n % ORIGINS);
      String root = originRoots.get(origin);
      String url = root + "section-" + (n / ORIGINS % 100) + "/article-" + n + ".html";
      DiscoveredUrl link =
          DiscoveredUrl.newBuilder()
              .setUrl(url)
              .setSourceUrl(root)
              .setDepth(1)
              .setKind(UrlKind.LINK)
              .setDiscoveredAt(Instant.now())
              .build();
      send(originKeys.get(origin), link);
      if ((n & 4095) == 0 && isProgressDue()) {
        checkWrites();
        progress(
            String.format(Locale.ROOT, "written %,d of %,d", n - from, to - from),
            offsets.committedTotal());
      }
    }
    producer.flush();
    checkWrites();
  }

  private void send(String key, DiscoveredUrl value) throws InterruptedException {
    unacknowledged.acquire();
    producer.send(
        new ProducerRecord<>(topics.discovered().name(), key, value),
        (metadata, error) -> {
          unacknowledged.release();
          if (error != null) {
            writeFailure.compareAndSet(null, error);
          }
        });
  }

  private void checkWrites() {
    Exception failure = writeFailure.get();
    if (failure != null) {
      throw new IllegalStateException(
          "cannot write to " + topics.discovered().name() + ": " + failure, failure);
    }
  }

  /**
   * Waits until the frontier's group has committed the end of crawl.discovered, printing progress;
   * fails when the frontier stops or its offsets stand still for {@link #STALL_LIMIT}.
   */
  private void awaitDecided(long urls) throws InterruptedException {
    long lastCommitted = -1;
    long lastMove = System.nanoTime();
    while (!offsets.isCaughtUp()) {
      if (frontier.livenessProblem().isPresent()) {
        throw new IllegalStateException(
            "the frontier stopped (Kafka Streams is "
                + frontier.streamsService().streams().state()
                + "); see the log above");
      }
      long committed = offsets.committedTotal();
      if (committed != lastCommitted) {
        lastCommitted = committed;
        lastMove = System.nanoTime();
      } else if (System.nanoTime() - lastMove > STALL_LIMIT.toNanos()) {
        throw new IllegalStateException(
            "the frontier committed nothing on "
                + topics.discovered().name()
                + " for "
                + STALL_LIMIT.toSeconds()
                + " s");
      }
      if (isProgressDue()) {
        progress(String.format(Locale.ROOT, "all %,d written", urls), committed);
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }

  private void startStep(String label) throws InterruptedException {
    stepLabel = label;
    committedAtStepStart = offsets.committedTotal();
    stepStarted = System.nanoTime();
    lastProgress = stepStarted;
  }

  private boolean isProgressDue() {
    return System.nanoTime() - lastProgress >= TimeUnit.SECONDS.toNanos(PROGRESS_SECONDS);
  }

  /**
   * A progress line on standard error. The frontier's offsets count every record it read, the
   * transaction markers of its own writes to crawl.discovered included: an approximation of the
   * URLs decided.
   */
  private void progress(String written, long committed) {
    lastProgress = System.nanoTime();
    double seconds = (lastProgress - stepStarted) / 1e9;
    System.err.printf(
        Locale.ROOT,
        "[%s] %4.0f s: %s; the frontier has read ~%,d; RSS %d MB%n",
        stepLabel,
        seconds,
        written,
        committed - committedAtStepStart,
        residentMegabytes());
  }

  /** The figures after a step of {@code added} URLs that took {@code seconds}. */
  private Row measureRow(long links, long added, double seconds) throws InterruptedException {
    MemoryUsage heap = heapAfterGc();
    return new Row(
        links,
        added,
        seconds,
        heap.getUsed(),
        heap.getCommitted(),
        settledResidentMegabytes() << 20,
        rocksDbBytes("size-all-mem-tables", LongStream::sum),
        rocksDbBytes("block-cache-usage", values -> values.max().orElse(0)),
        directoryBytes(stateDir),
        links + seedUrls,
        frontierQueued());
  }

  /**
   * A RocksDB metric of the frontier's stores, the stores' figures combined by {@code combine}
   * (sum, or max for a shared cache).
   */
  private long rocksDbBytes(String metric, Function<LongStream, Number> combine) {
    LongStream values =
        frontier.streamsService().streams().metrics().values().stream()
            .filter(
                m ->
                    m.metricName().name().equals(metric)
                        && m.metricName().group().equals(ROCKSDB_METRICS_GROUP))
            .map(Metric::metricValue)
            .filter(Number.class::isInstance)
            .mapToLong(value -> ((Number) value).longValue());
    return combine.apply(values).longValue();
  }

  /** URLs queued or in flight, as the frontier's stores say; empty while they cannot be queried. */
  private Optional<Long> frontierQueued() {
    return frontier.progress().map(progress -> progress.queued() + progress.inFlight());
  }

  /**
   * A step's figures, in bytes; {@code queued} as the frontier reports it, which should equal
   * {@code knownUrls}.
   */
  private record Row(
      long links,
      long added,
      double seconds,
      long heapUsed,
      long heapCommitted,
      long resident,
      long memTables,
      long blockCache,
      long stateBytes,
      long knownUrls,
      Optional<Long> queued) {}

  private static void printHeader() {
    System.out.printf(
        Locale.ROOT,
        "%12s %7s %8s %8s %9s %7s %9s %9s %9s %11s %12s%n",
        "N",
        "step s",
        "URLs/s",
        "heap MB",
        "(commit.)",
        "RSS MB",
        "memtab MB",
        "cache MB",
        "state MB",
        "state B/URL",
        "queued");
  }

  /** One row of the table; the first, before any link, has no rate and no bytes per URL. */
  private static void printRow(Row row) {
    boolean isBaseline = row.links() == 0;
    String rate =
        isBaseline ? "-" : String.format(Locale.ROOT, "%,.0f", row.added() / row.seconds());
    String bytesPerUrl =
        isBaseline
            ? "-"
            : String.format(Locale.ROOT, "%,.0f", (double) row.stateBytes() / row.knownUrls());
    String queued = row.queued().map(q -> String.format(Locale.ROOT, "%,d", q)).orElse("?");
    System.out.printf(
        Locale.ROOT,
        "%,12d %7.1f %8s %8d %9d %7d %9d %9d %9.1f %11s %12s%n",
        row.links(),
        row.seconds(),
        rate,
        row.heapUsed() >> 20,
        row.heapCommitted() >> 20,
        row.resident() >> 20,
        row.memTables() >> 20,
        row.blockCache() >> 20,
        row.stateBytes() / 1e6,
        bytesPerUrl,
        queued);
    if (row.queued().isPresent() && row.queued().get() != row.knownUrls()) {
      System.out.printf(
          Locale.ROOT,
          "  MISMATCH: the frontier reports %,d URLs queued or in flight, but knows %,d%n",
          row.queued().get(),
          row.knownUrls());
    }
  }

  private static MemoryUsage heapAfterGc() {
    for (int i = 0; i < 2; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
  }

  /**
   * The resident set size once it has stopped falling: G1 gives the heap it shrank to after a full
   * GC back to the system concurrently, so RSS read at once would still count it. Waits at most
   * {@link #RSS_SETTLE_LIMIT}.
   */
  private static long settledResidentMegabytes() throws InterruptedException {
    long deadline = System.nanoTime() + RSS_SETTLE_LIMIT.toNanos();
    long previous = residentMegabytes();
    while (System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200);
      long current = residentMegabytes();
      if (previous - current < 1) {
        return current;
      }
      previous = current;
    }
    return previous;
  }

  /**
   * This process's resident set size in MB ({@code VmRSS}, Linux); 0 where the system does not say.
   */
  private static long residentMegabytes() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
      return lines
          .filter(line -> line.startsWith("VmRSS:"))
          .findFirst()
          .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10)
          .orElse(0L);
    } catch (IOException | RuntimeException e) {
      return 0; // not Linux
    }
  }

  /**
   * The bytes of the regular files under a directory; files that vanish meanwhile (compactions) are
   * skipped.
   */
  private static long directoryBytes(Path directory) {
    long[] total = {0};
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()) {
                total[0] += attributes.size();
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot measure " + directory, e);
    }
    return total[0];
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("could not delete " + directory + " entirely: " + e);
    }
  }

  /**
   * The frontier's consumer group's committed offsets on crawl.discovered against the topic's end
   * offsets, as crawler-cli's {@code GroupLag} reads them.
   */
  private static final class DiscoveredOffsets {

    private static final long TIMEOUT_SECONDS = 10;

    private final Admin admin;
    private final String groupId;
    private final String topic;

    DiscoveredOffsets(Admin admin, String groupId, TopicSpec<?, ?> topic) {
      this.admin = admin;
      this.groupId = groupId;
      this.topic = topic.name();
    }

    /** Whether the group has committed the read-committed end of every non-empty partition. */
    boolean isCaughtUp() throws InterruptedException {
      Map<TopicPartition, Long> committed = committed();
      Map<TopicPartition, Long> ends = endOffsets();
      return ends.entrySet().stream()
          .allMatch(
              end ->
                  end.getValue() == 0
                      || committed.getOrDefault(end.getKey(), -1L) >= end.getValue());
    }

    /**
     * The sum of the group's committed offsets over the topic's partitions: a measure of progress.
     */
    long committedTotal() throws InterruptedException {
      return committed().values().stream().mapToLong(Long::longValue).sum();
    }

    private Map<TopicPartition, Long> committed() throws InterruptedException {
      try {
        Map<TopicPartition, OffsetAndMetadata> all =
            admin
                .listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        all.forEach(
            (partition, offset) -> {
              if (partition.topic().equals(topic) && offset != null) {
                offsets.put(partition, offset.offset());
              }
            });
        return offsets;
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException(
            "cannot read the committed offsets of group " + groupId + ": " + e, e);
      }
    }

    private Map<TopicPartition, Long> endOffsets() throws InterruptedException {
      try {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .forEach(
                (name, description) ->
                    description
                        .partitions()
                        .forEach(
                            p ->
                                request.put(
                                    new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin
            .listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
            .all()
            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
      } catch (ExecutionException | TimeoutException e) {
        throw new IllegalStateException("cannot read the end offsets of " + topic + ": " + e, e);
      }
    }
  }
}
