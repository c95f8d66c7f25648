package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.DocumentEvent;
import dev.crawler.schemas.SampleEvents;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code crawler documents} reads crawl.documents as a downstream consumer does. */
class DocumentsCommandIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dataDir;

  @Test
  void printsTheLiveSetOrEveryEvent() throws Exception {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 2)) {
      Topics topics = Topics.create(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
        new TopicInstaller(admin, Duration.ofSeconds(30)).install(topics.all(), 2, (short) 1);
      }
      DocumentEvent first = SampleEvents.upsert();
      DocumentEvent gone = SampleEvents.upsert();
      gone.setUrl("https://example.org/gone");
      gone.getDocument().setUrl("https://example.org/gone");
      DocumentEvent delete = SampleEvents.delete();
      DocumentEvent second = SampleEvents.upsert();
      second.getDocument().setVersion(5);
      second.getDocument().setTitle("Title, changed");
      Map<String, Object> properties =
          Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
      try (KafkaProducer<String, DocumentEvent> producer =
          new KafkaProducer<>(
              properties,
              topics.documents().keySerde().serializer(),
              topics.documents().valueSerde().serializer())) {
        String name = topics.documents().name();
        producer.send(new ProducerRecord<>(name, first.getUrl(), first)).get();
        producer.send(new ProducerRecord<>(name, gone.getUrl(), gone)).get();
        producer.send(new ProducerRecord<>(name, delete.getUrl(), delete)).get();
        producer.send(new ProducerRecord<>(name, delete.getUrl(), null)).get();
        producer.send(new ProducerRecord<>(name, second.getUrl(), second)).get();
      }
      String[] cluster_ = {
        "--bootstrap-servers",
        cluster.bootstrapServers(),
        "--schema-registry",
        cluster.schemaRegistryUrl()
      };

      List<JsonNode> live = run("documents", cluster_);
      List<JsonNode> events = run("documents", cluster_, "--follow", "--limit", "5");

      assertThat(live).hasSize(1);
      assertThat(live.get(0).get("url").asText()).isEqualTo("https://example.org/a");
      assertThat(live.get(0).get("version").asLong()).isEqualTo(5);
      assertThat(live.get(0).get("title").asText()).isEqualTo("Title, changed");
      assertThat(live.get(0).get("publishedAt").asText())
          .isEqualTo(first.getDocument().getPublishedAt().toString());
      assertThat(live.get(0).has("text")).as("left out without --text").isFalse();
      assertThat(events)
          .extracting(e -> e.get("event").asText() + " " + e.get("url").asText())
          .containsExactlyInAnyOrder(
              "UPSERT https://example.org/a",
              "UPSERT https://example.org/gone",
              "DELETE https://example.org/gone",
              "TOMBSTONE https://example.org/gone",
              "UPSERT https://example.org/a");
      assertThat(events)
          .filteredOn(e -> e.get("event").asText().equals("DELETE"))
          .first()
          .satisfies(e -> assertThat(e.get("deleteReason").asText()).isEqualTo("GONE"));
    }
  }

  private static List<JsonNode> run(String command, String[] cluster, String... more)
      throws Exception {
    StringWriter out = new StringWriter();
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of(cluster));
    args.addAll(List.of(more));
    int exit =
        CrawlerCli.commandLine().setOut(new PrintWriter(out)).execute(args.toArray(String[]::new));
    assertThat(exit).isZero();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      if (!line.isBlank()) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
  }
}
