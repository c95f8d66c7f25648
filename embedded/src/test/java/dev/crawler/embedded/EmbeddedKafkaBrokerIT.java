package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.CrawlOutcome;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-JVM broker on its own data directory, apart from the shared test cluster. */
class EmbeddedKafkaBrokerIT {

  @TempDir Path dataDir;

  @Test
  void aSecondStartOnTheSameDirectoryResumesTheCluster() throws Exception {
    String clusterId;
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir, 2)) {
      assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
      clusterId = clusterId(broker);
      try (Admin admin = admin(broker)) {
        admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get();
      }
      try (KafkaProducer<String, String> producer = producer(broker)) {
        producer.send(new ProducerRecord<>("kept", "k", "written before the restart")).get();
      }
    }
    String metaProperties = Files.readString(dataDir.resolve("kafka/meta.properties"));
    assertThat(dataDir.resolve("kafka/.kafka_cleanshutdown"))
        .as("closed cleanly: its logs need no recovery at the next start")
        .exists();

    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir, 2)) {
      assertThat(Files.readString(dataDir.resolve("kafka/meta.properties")))
          .isEqualTo(metaProperties);
      assertThat(clusterId(broker)).isEqualTo(clusterId);
      assertThat(read(broker, "kept"))
          .extracting(ConsumerRecord::value)
          .containsExactly("written before the restart");
    }
  }

  @Test
  void aClusterStartedAgainOnItsDataDirectoryKeepsItsAddresses() {
    String bootstrap;
    String registry;
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 1)) {
      bootstrap = cluster.bootstrapServers();
      registry = cluster.schemaRegistryUrl();
    }

    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 1)) {
      assertThat(cluster.bootstrapServers()).isEqualTo(bootstrap);
      assertThat(cluster.schemaRegistryUrl()).isEqualTo(registry);
    }
  }

  @Test
  void aDataDirectoryWhoseSchemasAnApicurioRegistryKeptIsServedByItAgain() {
    int id;
    try (EmbeddedSchemaRegistry apicurio = EmbeddedSchemaRegistry.start(dataDir)) {
      id =
          new HttpSchemaRegistryClient(apicurio.url())
              .register("crawl.discovered-value", CrawlOutcome.getClassSchema());
    }

    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 1)) {
      assertThat(cluster.registry()).isInstanceOf(EmbeddedSchemaRegistry.class);
      assertThat(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()).schemaById(id))
          .isEqualTo(CrawlOutcome.getClassSchema());
    }
  }

  @Test
  void aNewDataDirectoryGetsTheRegistryInThisJvm() {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 1)) {
      assertThat(cluster.registry()).isInstanceOf(LocalSchemaRegistry.class);
      new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()).checkReachable();
    }
  }

  @Test
  void theGroupCoordinatorOfANewBrokerAnswersOnceAskedFor() throws Exception {
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir, 1);
        Admin admin = admin(broker)) {
      ListTopicsOptions internalToo = new ListTopicsOptions().listInternal(true);
      assertThat(admin.listTopics(internalToo).names().get()).doesNotContain("__consumer_offsets");

      new TopicInstaller(admin, Duration.ofSeconds(30)).awaitGroupCoordinator();

      assertThat(admin.listTopics(internalToo).names().get()).contains("__consumer_offsets");
    }
  }

  @Test
  void closingTwiceIsHarmless() {
    EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dataDir, 1);
    broker.close();
    broker.close();
  }

  private static String clusterId(EmbeddedKafkaBroker broker) throws Exception {
    try (Admin admin = admin(broker)) {
      return admin.describeCluster().clusterId().get();
    }
  }

  private static Admin admin(EmbeddedKafkaBroker broker) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
  }

  private static KafkaProducer<String, String> producer(EmbeddedKafkaBroker broker) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  private static List<ConsumerRecord<String, String>> read(
      EmbeddedKafkaBroker broker, String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (records.isEmpty() && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  @SuppressWarnings("unused")
  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
