package dev.crawler.common.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.embedded.KafkaNodeCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hanging transaction made the way a broker's crash makes one, on a cluster of three node
 * processes: a transaction writes to a partition whose only replica is on node 3; node 3 goes away,
 * so the partition has no leader when the coordinator aborts the timed-out transaction, and the
 * coordinator completes the abort without that partition's marker. Node 3 comes back holding the
 * transaction open for good.
 */
class TransactionRecoveryIT {

  @TempDir static Path dir;

  private static KafkaNodeCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = KafkaNodeCluster.start(dir, 3, 1, System.getProperty("java.class.path"));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void abortsATransactionItsCoordinatorEndedWithoutThePartitionsMarker() throws Exception {
    TopicPartition held = new TopicPartition("held", 0);
    cluster
        .admin()
        .createTopics(List.of(new NewTopic("held", Map.of(0, List.of(3)))))
        .all()
        .get(30, TimeUnit.SECONDS);
    try (KafkaProducer<String, String> transactional = transactionalProducer("writer", 3_000)) {
      transactional.initTransactions();
      transactional.beginTransaction();
      sendWhenServed(transactional, new ProducerRecord<>("held", 0, "k", "never ended"));
      transactional.flush();

      cluster.stop(3); // the partition's only replica: no leader from now on
      await("the coordinator ends the timed-out transaction")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> isEnded(cluster.admin(), "writer"));
      cluster.start(3);
      cluster.awaitNodes(Set.of(3), Duration.ofSeconds(120));
    }
    try (KafkaProducer<String, String> plain = plainProducer()) {
      sendWhenServed(plain, new ProducerRecord<>("held", 0, "k", "written after"));
    }
    assertThat(stableOffset(held)).as("the open transaction holds the partition").isZero();

    TransactionRecovery reporting =
        new TransactionRecovery(
            "test",
            cluster.admin(),
            () -> List.of("held"),
            false,
            InstantSource.system(),
            Duration.ofSeconds(10));
    List<OpenTransaction> found = new ArrayList<>();
    await("found")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> found.addAll(reporting.pass()));
    assertThat(found)
        .singleElement()
        .satisfies(
            open -> {
              assertThat(open.partition()).isEqualTo(held);
              assertThat(open.startOffset()).isZero();
              assertThat(open.abortCommand())
                  .isEqualTo(
                      "kafka-transactions.sh --bootstrap-server <broker> abort --topic held"
                          + " --partition 0 --start-offset 0");
            });
    assertThat(stableOffset(held)).as("reported, not aborted").isZero();

    TransactionRecovery aborting =
        new TransactionRecovery(
            "test",
            cluster.admin(),
            () -> List.of("held"),
            true,
            InstantSource.system(),
            Duration.ofSeconds(10));
    await("aborted")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> !aborting.pass().isEmpty());
    assertThat(readCommitted(held)).containsExactly("written after");
    assertThat(aborting.pass()).isEmpty();
  }

  @Test
  void leavesATransactionItsCoordinatorStillMeansToEndAlone() throws Exception {
    TopicPartition busy = new TopicPartition("busy", 0);
    cluster
        .admin()
        .createTopics(List.of(new NewTopic("busy", Optional.of(1), Optional.empty())))
        .all()
        .get(30, TimeUnit.SECONDS);
    TransactionRecovery recovery =
        new TransactionRecovery(
            "test",
            cluster.admin(),
            () -> List.of("busy"),
            true,
            InstantSource.system(),
            Duration.ofSeconds(10));
    try (KafkaProducer<String, String> transactional = transactionalProducer("slow", 60_000)) {
      transactional.initTransactions();
      transactional.beginTransaction();
      sendWhenServed(transactional, new ProducerRecord<>("busy", 0, "k", "committed late"));
      transactional.flush();
      for (int pass = 0; pass < 4; pass++) {
        assertThat(recovery.pass()).isEmpty();
        TimeUnit.SECONDS.sleep(1); // passes a second apart, as the watchdog's are five
      }
      transactional.commitTransaction(); // not fenced: nothing was aborted
    }
    assertThat(readCommitted(busy)).containsExactly("committed late");
  }

  private static boolean isEnded(Admin admin, String transactionalId) {
    try {
      TransactionState state =
          admin
              .describeTransactions(List.of(transactionalId))
              .description(transactionalId)
              .get(5, TimeUnit.SECONDS)
              .state();
      return state == TransactionState.COMPLETE_ABORT || state == TransactionState.EMPTY;
    } catch (Exception e) {
      return false;
    }
  }

  private static long stableOffset(TopicPartition partition) throws Exception {
    return cluster
        .admin()
        .listOffsets(
            Map.of(partition, OffsetSpec.latest()),
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
        .partitionResult(partition)
        .get(30, TimeUnit.SECONDS)
        .offset();
  }

  private static List<String> readCommitted(TopicPartition partition) {
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      List<String> values = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                for (ConsumerRecord<String, String> record :
                    consumer.poll(Duration.ofMillis(200))) {
                  values.add(record.value());
                }
                return !values.isEmpty();
              });
      return values;
    }
  }

  private static void sendWhenServed(
      KafkaProducer<String, String> producer, ProducerRecord<String, String> record) {
    // a new partition's leader takes it a moment after the metadata names it
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() -> producer.send(record).get(10, TimeUnit.SECONDS) != null);
  }

  private static KafkaProducer<String, String> transactionalProducer(
      String transactionalId, int timeoutMs) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
            ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeoutMs),
        new StringSerializer(),
        new StringSerializer());
  }

  private static KafkaProducer<String, String> plainProducer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all"),
        new StringSerializer(),
        new StringSerializer());
  }
}
