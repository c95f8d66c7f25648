package dev.crawler.fetcher.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.FetchRequest;
import dev.crawler.fetcher.FetcherApp;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.fetcher.TestOrigins;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.jetty.client.HttpClient;

/**
 * The fetcher's politeness and speed, measured at the servers (prints figures; not a test):
 *
 * <ul>
 *   <li>(a) 50 origins at a delay of 200 ms: requests/s against their bound of 50 / 0.2 s = 250/s;
 *   <li>(b) the same with one origin answering in 2 s: the other 49 against their bound;
 *   <li>(c) no delay, local pages: requests/s of one fetcher, beside Jetty's HttpClient alone on
 *       the same pages.
 * </ul>
 *
 * <p>Everything runs in this JVM: an embedded broker and registry, the origins (Jetty), one
 * fetcher. Arguments: the pages per origin of (a) and (b), 40 by default, and the pages in all of
 * (c), 20000 by default.
 */
public final class FetcherBenchmark {

  public static void main(String[] args) throws Exception {
    int pagesPerOrigin = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    int fastPages = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Path dataDir = Files.createTempDirectory("fetcher-bench");
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 4)) {
      System.out.printf(
          Locale.ROOT,
          "%d cores, %s%n",
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.vm.name"));
      polite(cluster, "a", pagesPerOrigin, false);
      polite(cluster, "b", pagesPerOrigin, true);
      fast(cluster, fastPages);
    }
  }

  /** (a) and (b): 50 origins, delay 200 ms; with one slow origin for (b). */
  private static void polite(
      EmbeddedCluster cluster, String name, int pagesPerOrigin, boolean withSlowOrigin)
      throws Exception {
    int originCount = 50;
    long delay = 200;
    List<TestOrigins.Site> sites = new ArrayList<>();
    for (int i = 0; i < originCount; i++) {
      sites.add(
          withSlowOrigin && i == 0 ? new TestOrigins.Site().slow(2000) : new TestOrigins.Site());
    }
    try (TestOrigins origins = TestOrigins.start(sites)) {
      Topics topics = topics(cluster, "bench-" + name);
      FetcherApp fetcher = fetcher(cluster, topics, name);
      long cpuBefore = cpuNanos();
      List<String> urls = new ArrayList<>();
      for (int page = 0; page < pagesPerOrigin; page++) {
        for (int i = 0; i < originCount; i++) {
          urls.add(origins.origin(i) + "/page/" + page);
        }
      }
      send(cluster, topics, urls, delay);
      int first = withSlowOrigin ? 1 : 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!allFetched(origins, first, originCount, pagesPerOrigin)
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      long cpu = cpuNanos() - cpuBefore;
      fetcher.close();
      double worst = Double.MAX_VALUE;
      double sum = 0;
      long pages = 0;
      for (int i = first; i < originCount; i++) {
        List<TestOrigins.Hit> hits = pagesOf(origins.hits(origins.origin(i)));
        pages += hits.size();
        // from the first page's start to the last page's start:
        // (n - 1) intervals, each bounded by the delay
        double seconds =
            (hits.get(hits.size() - 1).startMillis() - hits.get(0).startMillis()) / 1000.0;
        double rate = (hits.size() - 1) / seconds;
        worst = Math.min(worst, rate);
        sum += rate;
        long gap = origins.smallestGap(origins.origin(i));
        if (gap < delay - 1) { // 1 ms: the servers' and the fetcher's clocks tick apart
          System.out.printf(
              Locale.ROOT, "  VIOLATION at %s: a gap of %d ms%n", origins.origin(i), gap);
        }
      }
      int measured = originCount - first;
      double bound = measured * 1000.0 / delay;
      System.out.printf(
          Locale.ROOT,
          "(%s) %d origins%s, delay %d ms, %d pages: %.1f requests/s over the %d origins = %.1f%% of the politeness bound %.0f/s (worst origin %.2f/s = %.1f%% of 5/s); CPU %.2f ms per page%n",
          name,
          originCount,
          withSlowOrigin ? " (one answering in 2 s)" : "",
          delay,
          pages,
          sum,
          measured,
          100 * sum / bound,
          bound,
          worst,
          100 * worst * delay / 1000.0,
          cpu / 1e6 / pages);
      if (withSlowOrigin) {
        System.out.printf(
            Locale.ROOT,
            "    the slow origin: %d pages meanwhile%n",
            pagesOf(origins.hits(origins.origin(0))).size());
      }
    }
  }

  /** (c): no delay, 20 local origins: one fetcher against Jetty's HttpClient alone. */
  private static void fast(EmbeddedCluster cluster, int totalPages) throws Exception {
    int originCount = 20;
    List<TestOrigins.Site> sites = new ArrayList<>();
    for (int i = 0; i < originCount; i++) {
      sites.add(new TestOrigins.Site());
    }
    try (TestOrigins origins = TestOrigins.start(sites)) {
      List<String> urls = new ArrayList<>();
      for (int page = 0; page < totalPages / originCount; page++) {
        for (int i = 0; i < originCount; i++) {
          urls.add(origins.origin(i) + "/page/" + page);
        }
      }
      double raw;
      try (TestOrigins other = TestOrigins.start(sites)) {
        List<String> otherUrls = new ArrayList<>();
        for (int page = 0; page < totalPages / originCount; page++) {
          for (int i = 0; i < originCount; i++) {
            otherUrls.add(other.origin(i) + "/page/" + page);
          }
        }
        raw = rawHttpClient(otherUrls, originCount);
      }
      Topics topics = topics(cluster, "bench-c");
      FetcherApp fetcher = fetcher(cluster, topics, "c");
      send(cluster, topics, urls.subList(0, originCount), 0); // robots.txt and connections first
      while (!allFetched(origins, 0, originCount, 1)) {
        Thread.sleep(20);
      }
      long cpuBefore = cpuNanos();
      long started = System.nanoTime();
      send(cluster, topics, urls.subList(originCount, urls.size()), 0);
      int perOrigin = urls.size() / originCount;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
      while (!allFetched(origins, 0, originCount, perOrigin) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      long cpu = cpuNanos() - cpuBefore;
      fetcher.close();
      int pages = urls.size() - originCount;
      System.out.printf(
          Locale.ROOT,
          "(c) delay 0, %d origins, %d pages: one fetcher %.0f requests/s (through Kafka: request in, result out; CPU %.3f ms per page, servers included); Jetty HttpClient alone: %.0f requests/s%n",
          originCount,
          pages,
          pages / seconds,
          cpu / 1e6 / pages,
          raw);
    }
  }

  /** Jetty's HttpClient alone, one request at a time per origin as the fetcher does. */
  private static double rawHttpClient(List<String> urls, int concurrency) throws Exception {
    HttpClient client = new HttpClient();
    client.start();
    try {
      Semaphore slots = new Semaphore(concurrency);
      AtomicLong failures = new AtomicLong();
      long started = System.nanoTime();
      for (String url : urls) {
        slots.acquire();
        client
            .newRequest(url)
            .send(
                result -> {
                  if (result.isFailed()) {
                    failures.incrementAndGet();
                  }
                  slots.release();
                });
      }
      slots.acquire(concurrency);
      double seconds = (System.nanoTime() - started) / 1e9;
      if (failures.get() > 0) {
        System.out.printf(Locale.ROOT, "  raw HttpClient: %d failures%n", failures.get());
      }
      return urls.size() / seconds;
    } finally {
      client.stop();
    }
  }

  private static List<TestOrigins.Hit> pagesOf(List<TestOrigins.Hit> hits) {
    return hits.stream().filter(hit -> hit.path().startsWith("/page/")).toList();
  }

  private static boolean allFetched(
      TestOrigins origins, int first, int originCount, int pagesPerOrigin) {
    for (int i = first; i < originCount; i++) {
      if (pagesOf(origins.hits(origins.origin(i))).size() < pagesPerOrigin) {
        return false;
      }
    }
    return true;
  }

  private static Topics topics(EmbeddedCluster cluster, String prefix) {
    Topics topics =
        Topics.create(prefix + ".", new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    try (Admin admin = Admin.create(properties)) {
      new TopicInstaller(admin, Duration.ofSeconds(30)).install(topics.all(), 4, (short) 1);
    }
    return topics;
  }

  private static FetcherApp fetcher(EmbeddedCluster cluster, Topics topics, String name) {
    Map<String, String> settings = new HashMap<>();
    settings.put("kafka.bootstrap.servers", cluster.bootstrapServers());
    settings.put("schema.registry.url", cluster.schemaRegistryUrl());
    settings.put("topic.prefix", topics.prefix());
    settings.put(FetcherConfig.GROUP_ID_CONFIG, "bench-" + name);
    settings.put(FetcherConfig.USER_AGENT_CONFIG, "bench-bot/1.0");
    settings.put(FetcherConfig.ADDRESS_ALLOW_CONFIG, "127.0.0.1"); // the origins' address
    return FetcherApp.start(new FetcherConfig(settings));
  }

  private static void send(EmbeddedCluster cluster, Topics topics, List<String> urls, long delay) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    try (KafkaProducer<String, FetchRequest> producer =
        new KafkaProducer<>(
            properties,
            topics.fetchRequests().keySerde().serializer(),
            topics.fetchRequests().valueSerde().serializer())) {
      for (String url : urls) {
        FetchRequest request =
            FetchRequest.newBuilder()
                .setUrl(url)
                .setRequestId("b-" + url)
                .setAttempt(1)
                .setReleasedAt(Instant.now())
                .setOptions(Map.of("delay-ms", Long.toString(delay)))
                .build();
        producer.send(
            new ProducerRecord<>(topics.fetchRequests().name(), Origin.keyOf(url), request));
      }
    }
  }

  private static long cpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private FetcherBenchmark() {}
}
