package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster of three node processes: replication, a crash of a leader, a restart. */
class KafkaNodeClusterIT {

  @TempDir Path dataDir;

  @Test
  void threeNodesReplicateEveryTopicAndSurviveTheCrashOfALeader() throws Exception {
    try (KafkaNodeCluster cluster =
        KafkaNodeCluster.start(dataDir, 3, 2, System.getProperty("java.class.path"))) {
      assertThat(cluster.nodeIds()).containsExactly(1, 2, 3);
      assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
      // a topic created without a replication factor, as Kafka Streams creates its changelogs
      cluster
          .admin()
          .createTopics(List.of(new NewTopic("replicated", Optional.empty(), Optional.empty())))
          .all()
          .get(30, TimeUnit.SECONDS);
      TopicDescription topic = cluster.describe("replicated");
      assertThat(topic.partitions()).hasSize(2);
      assertThat(topic.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
      Config config =
          cluster
              .admin()
              .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "replicated")))
              .all()
              .get()
              .values()
              .iterator()
              .next();
      assertThat(config.get("min.insync.replicas").value()).isEqualTo("2");
      // the internal topics (offsets, transactions), created on first use, are replicated alike
      Config broker =
          cluster
              .admin()
              .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "1")))
              .all()
              .get()
              .values()
              .iterator()
              .next();
      assertThat(broker.get("offsets.topic.replication.factor").value()).isEqualTo("3");
      assertThat(broker.get("transaction.state.log.replication.factor").value()).isEqualTo("3");
      assertThat(broker.get("transaction.state.log.min.isr").value()).isEqualTo("2");

      try (KafkaProducer<String, String> producer = producer(cluster)) {
        producer
            .send(new ProducerRecord<>("replicated", 0, "k", "before"))
            .get(30, TimeUnit.SECONDS);
        int leader = cluster.leaders("replicated").values().iterator().next();
        cluster.kill(leader);
        assertThat(cluster.isRunning(leader)).isFalse();
        // acks=all with two of three in sync: the write waits for a new leader, then succeeds
        producer
            .send(new ProducerRecord<>("replicated", 0, "k", "after"))
            .get(60, TimeUnit.SECONDS);
        assertThat(cluster.leaders("replicated").values()).doesNotContain(leader);

        cluster.start(leader);
        cluster.awaitNodes(Set.of(leader), Duration.ofSeconds(120));
      }
    }
    // started again on its directory: the same cluster, the same addresses
    try (KafkaNodeCluster cluster =
        KafkaNodeCluster.start(dataDir, 3, 2, System.getProperty("java.class.path"))) {
      assertThat(cluster.admin().listTopics().names().get()).contains("replicated");
      assertThat(cluster.activeController()).isIn(1, 2, 3);
    }
  }

  private static KafkaProducer<String, String> producer(KafkaNodeCluster cluster) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            60_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            10_000),
        new StringSerializer(),
        new StringSerializer());
  }
}
