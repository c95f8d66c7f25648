package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.embedded.junit.KafkaClusterExtension;
import dev.crawler.embedded.junit.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.ForeachAction;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every Streams service shares, against a real broker: liveness follows progress (a stream
 * thread stuck on a record with more behind it fails {@code /health/live} once the bound has
 * passed, and is alive again as soon as it moves), a failed thread's task runs again at once, and a
 * thread commits as soon as its input pauses.
 */
@ExtendWith(KafkaClusterExtension.class)
class StreamsServiceIT {

  private static final Duration BOUND = Duration.ofSeconds(5);

  @Test
  void aStreamThreadStuckWithRecordsBehindIsNotAliveAfterTheBoundAndIsOnceItMoves(
      TestCluster cluster) throws Exception {
    String in = cluster.uniqueId("stuck-in");
    String out = cluster.uniqueId("stuck-out");
    CountDownLatch release = new CountDownLatch(1);
    Topology copy =
        copy(
            cluster,
            in,
            out,
            (key, value) -> {
              if (value.equals("stuck")) {
                awaitRelease(release); // a thread stuck in a call that never returns
              }
            });
    PlainStreamsSettings config =
        settings(
            cluster,
            "stuck",
            Map.of(StreamsServiceConfig.STALL_TIMEOUT_MS_CONFIG, Long.toString(BOUND.toMillis())));
    StreamsService service = StreamsService.start(config, copy);
    try (KafkaProducer<String, String> producer = producer(cluster)) {
      producer.send(new ProducerRecord<>(in, "k", "first")).get(30, TimeUnit.SECONDS);
      List<String> output = new ArrayList<>();
      await("first record through")
          .atMost(Duration.ofSeconds(90))
          .until(() -> read(cluster, out, output).contains("first"));
      assertThat(service.livenessProblem()).isEmpty();

      producer.send(new ProducerRecord<>(in, "k", "stuck"));
      producer.send(new ProducerRecord<>(in, "k", "behind"));
      producer.flush();
      await("not alive once stuck for longer than the bound")
          .atMost(Duration.ofSeconds(40))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> service.livenessProblem().isPresent());
      assertThat(service.livenessProblem().get())
          .startsWith("no progress for ")
          .contains("bound 5 s");

      release.countDown();
      await("alive again once it moves")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> service.livenessProblem().isEmpty());
      await("the records behind it through")
          .atMost(Duration.ofSeconds(30))
          .until(() -> read(cluster, out, output).containsAll(List.of("stuck", "behind")));
    } finally {
      release.countDown();
      service.close();
    }
  }

  /**
   * A stream thread that fails is replaced, and under static membership its member leaves the group
   * at once: its task runs again long before the member's session would have timed out.
   */
  @Test
  void aFailedStreamThreadsTaskRunsAgainWithoutWaitingForItsSessionToTimeOut(TestCluster cluster)
      throws Exception {
    String in = cluster.uniqueId("replaced-in");
    String out = cluster.uniqueId("replaced-out");
    AtomicBoolean failed = new AtomicBoolean();
    Topology copy =
        copy(
            cluster,
            in,
            out,
            (key, value) -> {
              if (value.equals("fail") && failed.compareAndSet(false, true)) {
                throw new AssertionError("an unexpected failure of the stream thread");
              }
            });
    Duration session = Duration.ofSeconds(45);
    PlainStreamsSettings config =
        settings(
            cluster,
            "replaced",
            Map.of(
                ServiceConfig.SESSION_TIMEOUT_MS_CONFIG,
                Long.toString(session.toMillis()),
                StreamsServiceConfig.INSTANCE_ID_CONFIG,
                "instance-a"));
    StreamsService service = StreamsService.start(config, copy);
    try (KafkaProducer<String, String> producer = producer(cluster)) {
      producer.send(new ProducerRecord<>(in, "k", "first")).get(30, TimeUnit.SECONDS);
      List<String> output = new ArrayList<>();
      await("first record through")
          .atMost(Duration.ofSeconds(90))
          .until(() -> read(cluster, out, output).contains("first"));

      producer.send(new ProducerRecord<>(in, "k", "fail"));
      producer.send(new ProducerRecord<>(in, "k", "after"));
      producer.flush();
      await("the failed record and the one after it through, by the new thread")
          .atMost(session.minusSeconds(15))
          .until(() -> read(cluster, out, output).containsAll(List.of("fail", "after")));
      assertThat(failed).isTrue();
      assertThat(output).containsExactly("first", "fail", "after");
    } finally {
      service.close();
    }
  }

  /**
   * A record is processed in its stream thread's transaction, which counts as committed once the
   * thread's producer committed it; a thread that fails leaves its transaction uncommitted, and the
   * record is processed again in one that commits.
   */
  @Test
  void aRecordsTransactionIsCommittedOnceItsThreadCommitsAndNotWhenTheThreadFails(
      TestCluster cluster) throws Exception {
    String in = cluster.uniqueId("transactions-in");
    String out = cluster.uniqueId("transactions-out");
    Map<String, List<StreamTransactions.Transaction>> transactions = new ConcurrentHashMap<>();
    AtomicBoolean failed = new AtomicBoolean();
    Topology copy =
        copy(
            cluster,
            in,
            out,
            (key, value) -> {
              transactions
                  .computeIfAbsent(value, v -> new CopyOnWriteArrayList<>())
                  .add(StreamTransactions.current());
              if (value.equals("fail") && failed.compareAndSet(false, true)) {
                throw new AssertionError("an unexpected failure of the stream thread");
              }
            });
    PlainStreamsSettings config = settings(cluster, "transactions", Map.of());
    StreamsService service = StreamsService.start(config, copy);
    try (KafkaProducer<String, String> producer = producer(cluster)) {
      producer.send(new ProducerRecord<>(in, "k", "first")).get(30, TimeUnit.SECONDS);
      await("the first record's transaction committed")
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  transactions.containsKey("first")
                      && transactions.get("first").get(0).isCommitted());
      assertThat(transactions.get("first").get(0).holds()).isTrue();

      producer.send(new ProducerRecord<>(in, "k", "fail"));
      producer.send(new ProducerRecord<>(in, "k", "after"));
      producer.flush();
      await("the failed record processed again and committed")
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  transactions.getOrDefault("fail", List.of()).size() == 2
                      && transactions.get("fail").get(1).isCommitted()
                      && transactions.containsKey("after")
                      && transactions.get("after").get(0).isCommitted());
      StreamTransactions.Transaction failedIn = transactions.get("fail").get(0);
      assertThat(failedIn.isCommitted()).isFalse();
      assertThat(failedIn.holds()).as("seen from another thread").isFalse();
      assertThat(failedIn).isNotSameAs(transactions.get("fail").get(1));
      assertThat(transactions.get("first").get(0)).isNotSameAs(failedIn);
    } finally {
      service.close();
    }
  }

  /**
   * A thread whose input pauses after a few records commits them without waiting for the commit
   * interval; a burst of hundreds waits for the interval, as a busy thread's input does. Each
   * transaction leaves one marker in the output.
   */
  @Test
  void aThreadCommitsASmallBurstOnceItsInputPausesAndLeavesABusyBurstToTheInterval(
      TestCluster cluster) throws Exception {
    String in = cluster.uniqueId("quiet-in");
    String out = cluster.uniqueId("quiet-out");
    createTopics(cluster, in, out);
    Topology copy = new Topology();
    copy.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), in);
    copy.addProcessor("copy", QuietCopy::new, "in");
    copy.addSink("out", out, Serdes.String().serializer(), Serdes.String().serializer(), "copy");
    PlainStreamsSettings config =
        settings(
            cluster,
            "quiet",
            Map.of(
                // an interval no part of the test waits for: every commit before the close is a
                // quiet one
                StreamsServiceConfig.COMMIT_INTERVAL_MS_CONFIG, "60000",
                StreamsServiceConfig.TRANSACTION_TIMEOUT_MS_CONFIG, "120000",
                StreamsServiceConfig.COMMIT_QUIET_MS_CONFIG, "100"));
    StreamsService service = StreamsService.start(config, copy);
    TopicPartition output = new TopicPartition(out, 0);
    try (KafkaProducer<String, String> producer = producer(cluster)) {
      producer.send(new ProducerRecord<>(in, "k", "first")).get(30, TimeUnit.SECONDS);
      await("the first record committed once the input paused")
          .atMost(Duration.ofSeconds(30))
          .until(() -> committed(cluster, output).records() == 1);
      assertThat(committed(cluster, output).transactions()).isEqualTo(1);

      int burst = QuietCommit.MAX_BURST * 3;
      for (int i = 0; i < burst; i++) {
        producer.send(new ProducerRecord<>(in, "k", "busy-" + i));
      }
      producer.flush();
      Thread.sleep(2_000); // twenty quiet times
      assertThat(committed(cluster, output))
          .as("a burst of %d left to the interval", burst)
          .isEqualTo(new Committed(1, 1));
    } finally {
      service.close();
    }
    // closing commits what was processed
    assertThat(committed(cluster, output).records()).isEqualTo(1 + QuietCommit.MAX_BURST * 3);
  }

  /**
   * A service's settings on the cluster: an application of its own named after {@code name}, a
   * state directory of its own, and {@code more}.
   */
  private static PlainStreamsSettings settings(
      TestCluster cluster, String name, Map<String, String> more) {
    Map<String, String> settings = new HashMap<>(more);
    settings.put(ServiceConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    settings.put(ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG, cluster.schemaRegistryUrl());
    settings.put(StreamsServiceConfig.APPLICATION_ID_CONFIG, cluster.uniqueId(name));
    settings.put(
        StreamsServiceConfig.STATE_DIR_CONFIG, cluster.newDirectory(name + "-state").toString());
    return new PlainStreamsSettings(settings);
  }

  /** Copies its input, counting every record for its quiet commits. */
  private static final class QuietCopy implements Processor<String, String, String, String> {
    private ProcessorContext<String, String> context;
    private QuietCommit quiet = QuietCommit.NEVER;

    @Override
    public void init(ProcessorContext<String, String> context) {
      this.context = context;
      this.quiet = QuietCommit.of(context);
    }

    @Override
    public void process(Record<String, String> record) {
      quiet.processed();
      context.forward(record);
    }
  }

  /** The records committed on a partition, and the transactions that wrote them. */
  private record Committed(long records, long transactions) {}

  /**
   * What a read-committed consumer finds on the partition: its records, and the transactions, one
   * marker each, that took the offsets between them.
   */
  private static Committed committed(TestCluster cluster, TopicPartition partition) {
    try (KafkaConsumer<String, String> consumer = readCommitted(cluster)) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      long records = 0;
      while (consumer.position(partition) < end) {
        records += consumer.poll(Duration.ofMillis(200)).count();
      }
      return new Committed(records, end - records);
    }
  }

  /**
   * Creates the topics {@code in} and {@code out} (one partition each) and returns a topology
   * copying the first to the second, every record seen by {@code peek} on its way.
   */
  private static Topology copy(
      TestCluster cluster, String in, String out, ForeachAction<String, String> peek)
      throws Exception {
    createTopics(cluster, in, out);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
        .peek(peek)
        .to(out, Produced.with(Serdes.String(), Serdes.String()));
    return builder.build();
  }

  /** Creates the topics, one partition each. */
  private static void createTopics(TestCluster cluster, String... names) throws Exception {
    cluster
        .admin()
        .createTopics(Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)).toList())
        .all()
        .get(30, TimeUnit.SECONDS);
  }

  /** A consumer of no group that reads committed records only. */
  private static KafkaConsumer<String, String> readCommitted(TestCluster cluster) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed"),
        new StringDeserializer(),
        new StringDeserializer());
  }

  private static void awaitRelease(CountDownLatch release) {
    try {
      release.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<String> read(TestCluster cluster, String topic, List<String> into) {
    try (KafkaConsumer<String, String> consumer = readCommitted(cluster)) {
      var partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      into.clear();
      for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(2))) {
        into.add(record.value());
      }
      return into;
    }
  }

  private static KafkaProducer<String, String> producer(TestCluster cluster) {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()),
        new StringSerializer(),
        new StringSerializer());
  }
}
