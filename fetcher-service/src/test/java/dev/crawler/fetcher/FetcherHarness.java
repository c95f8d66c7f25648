package dev.crawler.fetcher;

import static org.awaitility.Awaitility.await;

import dev.crawler.embedded.junit.TestCluster;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Feeds fetch requests to fetchers over a real broker and collects what they write: fetch results,
 * outcomes and discovered URLs, by URL.
 */
final class FetcherHarness implements AutoCloseable {

  private final TestCluster cluster;
  private final Topics topics;
  private final String group;
  private final KafkaProducer<String, FetchRequest> producer;
  private final Map<String, List<FetchResult>> results = new ConcurrentHashMap<>();
  private final Map<String, List<CrawlOutcome>> outcomes = new ConcurrentHashMap<>();
  private final List<DiscoveredUrl> discovered = new CopyOnWriteArrayList<>();

  /** How far the reader got, per partition of the topics it reads. */
  private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();

  private final List<TopicPartition> partitions = new CopyOnWriteArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread reader;
  private final List<FetcherApp> fetchers = new ArrayList<>();

  FetcherHarness(TestCluster cluster, String name) {
    this.cluster = cluster;
    this.topics = cluster.topics(name);
    this.group = cluster.uniqueId(name + "-fetchers");
    Properties producerProperties = new Properties();
    producerProperties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    producerProperties.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    this.producer =
        new KafkaProducer<>(
            producerProperties,
            topics.fetchRequests().keySerde().serializer(),
            topics.fetchRequests().valueSerde().serializer());
    this.reader = new Thread(this::read, "harness-reader");
    reader.setDaemon(true);
    reader.start();
  }

  Topics topics() {
    return topics;
  }

  /**
   * Starts a fetcher of the harness's group with these settings beside the defaults of the tests.
   */
  FetcherApp startFetcher(String instance, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>();
    all.put("kafka.bootstrap.servers", cluster.bootstrapServers());
    all.put("schema.registry.url", cluster.schemaRegistryUrl());
    all.put("topic.prefix", topics.prefix());
    all.put(FetcherConfig.GROUP_ID_CONFIG, group);
    all.put(FetcherConfig.INSTANCE_ID_CONFIG, instance);
    all.put(FetcherConfig.USER_AGENT_CONFIG, "test-bot/1.0");
    all.put(FetcherConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
    all.put(FetcherConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
    // the test origins listen on 127.0.0.1, a loopback address the fetcher denies by default
    all.put(FetcherConfig.ADDRESS_ALLOW_CONFIG, "127.0.0.1");
    all.put("kafka.session.timeout.ms", "10000");
    all.put("kafka.heartbeat.interval.ms", "500");
    all.putAll(settings);
    FetcherApp app = FetcherApp.start(new FetcherConfig(all));
    fetchers.add(app);
    return app;
  }

  /** Stops one fetcher (it hands its partitions over as it leaves the group). */
  void stopFetcher(FetcherApp fetcher) {
    fetchers.remove(fetcher);
    fetcher.close();
  }

  /**
   * Stops every fetcher (each finishes and writes what it started) and waits until the reader has
   * read all they wrote: after this, a result or outcome written twice would be in the collections.
   */
  void awaitEverythingRead(Duration timeout) {
    for (FetcherApp fetcher : List.copyOf(fetchers)) {
      stopFetcher(fetcher);
    }
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    Map<TopicPartition, Long> ends;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      ends = consumer.endOffsets(partitions);
    }
    await()
        .atMost(timeout)
        .until(
            () ->
                ends.entrySet().stream()
                    .allMatch(end -> positions.getOrDefault(end.getKey(), 0L) >= end.getValue()));
  }

  /** Sends a fetch request for the URL, with these options. */
  void request(String url, Map<String, String> options) {
    FetchRequest request =
        FetchRequest.newBuilder()
            .setUrl(url)
            .setRequestId("r-" + url)
            .setDepth(1)
            .setAttempt(1)
            .setReleasedAt(Instant.now())
            .setOptions(options)
            .build();
    producer.send(new ProducerRecord<>(topics.fetchRequests().name(), Origin.keyOf(url), request));
  }

  void flush() {
    producer.flush();
  }

  List<FetchResult> results(String url) {
    return results.getOrDefault(url, List.of());
  }

  List<CrawlOutcome> outcomes(String url) {
    return outcomes.getOrDefault(url, List.of());
  }

  List<DiscoveredUrl> discovered() {
    return List.copyOf(discovered);
  }

  /** Whether the URL has a result or an outcome. */
  boolean isAnswered(String url) {
    return !results(url).isEmpty() || !outcomes(url).isEmpty();
  }

  /** How many times the URL was answered (a result or an outcome each). */
  int answers(String url) {
    return results(url).size() + outcomes(url).size();
  }

  private void read() {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      for (String topic :
          List.of(
              topics.fetchResults().name(), topics.outcomes().name(), topics.discovered().name())) {
        consumer
            .partitionsFor(topic)
            .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (running.get()) {
        partitions.forEach(partition -> positions.put(partition, consumer.position(partition)));
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          if (record.topic().equals(topics.fetchResults().name())) {
            FetchResult result =
                topics
                    .fetchResults()
                    .valueSerde()
                    .deserializer()
                    .deserialize(record.topic(), record.value());
            results.computeIfAbsent(result.getUrl(), u -> new CopyOnWriteArrayList<>()).add(result);
          } else if (record.topic().equals(topics.outcomes().name())) {
            CrawlOutcome outcome =
                topics
                    .outcomes()
                    .valueSerde()
                    .deserializer()
                    .deserialize(record.topic(), record.value());
            outcomes
                .computeIfAbsent(outcome.getUrl(), u -> new CopyOnWriteArrayList<>())
                .add(outcome);
          } else {
            discovered.add(
                topics
                    .discovered()
                    .valueSerde()
                    .deserializer()
                    .deserialize(record.topic(), record.value()));
          }
        }
      }
    }
  }

  @Override
  public void close() {
    for (FetcherApp fetcher : fetchers) {
      fetcher.close();
    }
    running.set(false);
    try {
      reader.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close();
  }
}
