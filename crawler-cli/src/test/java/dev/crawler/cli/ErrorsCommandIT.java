package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.RecordDecoder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ErrorsCommandIT {

  @TempDir Path dataDir;

  @Test
  void sendsClearErrorsToEveryPartitionOfTheControlTopic() {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 3)) {
      Topics topics = Topics.create(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
        new TopicInstaller(admin, Duration.ofSeconds(30)).install(topics.all(), 3, (short) 1);
      }

      int exit =
          CrawlerCli.run(
              "errors",
              "clear",
              "--bootstrap-servers",
              cluster.bootstrapServers(),
              "--schema-registry",
              cluster.schemaRegistryUrl());

      assertThat(exit).isZero();
      Map<String, Object> properties =
          Map.of(
              ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
              cluster.bootstrapServers(),
              ConsumerConfig.GROUP_ID_CONFIG,
              "errors-it",
              ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
              "earliest");
      List<ConsumerRecord<String, ControlCommand>> records = new ArrayList<>();
      RecordDecoder<String, ControlCommand> decoder = new RecordDecoder<>(topics.control());
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of(topics.control().name()));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (records.size() < 3 && System.nanoTime() < deadline) {
          consumer.poll(Duration.ofMillis(200)).forEach(raw -> records.add(decoder.decode(raw)));
        }
      }
      assertThat(records).extracting(ConsumerRecord::partition).containsExactlyInAnyOrder(0, 1, 2);
      assertThat(records)
          .extracting(r -> r.value().getCommand())
          .containsOnly(ControlCommandType.CLEAR_ERRORS);
    }
  }
}
