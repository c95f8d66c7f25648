package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.embedded.junit.KafkaClusterExtension;
import dev.crawler.embedded.junit.TestCluster;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DocumentEvent;
import dev.crawler.schemas.SampleEvents;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.SchemaRegistryException;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The event contract through a real broker and a real registry, as producers and downstream
 * consumers see it.
 */
@ExtendWith(KafkaClusterExtension.class)
class EventContractIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static TestCluster cluster;
  private static Topics topics;

  @BeforeAll
  static void createTopics(TestCluster testCluster) {
    cluster = testCluster;
    topics = cluster.topics("contract");
  }

  /** Where each sample travels. */
  private static List<Sample<?>> samples() {
    return List.of(
        new Sample<>(topics.discovered(), SampleEvents.discovered()),
        new Sample<>(topics.fetchRequests(), SampleEvents.fetchRequest()),
        new Sample<>(topics.fetchResults(), SampleEvents.fetchResult()),
        new Sample<>(topics.parsed(), SampleEvents.parsed()),
        new Sample<>(topics.outcomes(), SampleEvents.outcome()),
        new Sample<>(topics.documents(), SampleEvents.upsert()),
        new Sample<>(topics.documents(), SampleEvents.delete()),
        new Sample<>(topics.log(), SampleEvents.logEntry()),
        new Sample<>(topics.deadLetters(), SampleEvents.deadLetter()),
        new Sample<>(topics.control(), SampleEvents.control()));
  }

  private record Sample<V extends SpecificRecord>(TopicSpec<String, V> topic, V value) {
    byte[] serialize() {
      return topic.valueSerde().serializer().serialize(topic.name(), value);
    }
  }

  @Test
  void everyEventTypeTravelsThroughTheBrokerAndComesBackEqual() {
    List<Sample<?>> samples = samples();
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      for (Sample<?> sample : samples) {
        producer.send(
            new ProducerRecord<>(
                sample.topic().name(), key("https://example.org"), sample.serialize()));
      }
      // and a tombstone after the delete, as the committer writes it
      producer.send(
          new ProducerRecord<>(topics.documents().name(), key("https://example.org/gone"), null));
    }

    for (TopicSpec<String, ?> topic : topics.all()) {
      List<Object> expected = new ArrayList<>();
      samples.stream().filter(s -> s.topic() == topic).forEach(s -> expected.add(s.value()));
      List<ConsumerRecord<byte[], byte[]>> raw =
          consumeAll(topic.name(), expected.size() + (topic == topics.documents() ? 1 : 0));
      RecordDecoder<String, ?> decoder = new RecordDecoder<>(topic);
      List<Object> values =
          raw.stream().map(r -> decoder.decode(r).value()).map(v -> (Object) v).toList();
      if (topic == topics.documents()) {
        expected.add(null);
      }
      assertThat(values).as(topic.name()).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void schemasAreRegisteredUnderTheTopicNameStrategySubject() throws Exception {
    for (Sample<?> sample : samples()) {
      byte[] bytes = sample.serialize();
      int id = ByteBuffer.wrap(bytes, 1, 4).getInt();

      JsonNode latest =
          getJson(
              cluster.schemaRegistryUrl()
                  + "/subjects/"
                  + sample.topic().name()
                  + "-value/versions/latest");

      assertThat(latest.path("id").asInt()).as(sample.topic().name()).isEqualTo(id);
      assertThat(new Schema.Parser().parse(latest.path("schema").asText()))
          .isEqualTo(sample.value().getSchema());
    }
    JsonNode subjects = getJson(cluster.schemaRegistryUrl() + "/subjects");
    List<String> names = new ArrayList<>();
    subjects.forEach(s -> names.add(s.asText()));
    assertThat(names)
        .contains(topics.discovered().name() + "-value", topics.documents().name() + "-value");
  }

  /**
   * What a Confluent {@code KafkaAvroDeserializer} does with a record: read the magic byte and the
   * id, fetch the writer schema by id over the REST API, decode the rest generically. No class of
   * ours on that path.
   */
  @Test
  void aConsumerThatOnlyKnowsTheWireFormatDecodesOurRecords() throws Exception {
    DocumentEvent upsert = SampleEvents.upsert();
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      byte[] value =
          topics.documents().valueSerde().serializer().serialize(topics.documents().name(), upsert);
      producer.send(new ProducerRecord<>(topics.documents().name(), key(upsert.getUrl()), value));
    }
    byte[] bytes =
        consumeAll(topics.documents().name(), 1).stream()
            .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals(upsert.getUrl()))
            .findFirst()
            .orElseThrow()
            .value();

    assertThat(bytes[0]).isEqualTo((byte) 0);
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    Schema writer =
        new Schema.Parser()
            .parse(
                getJson(cluster.schemaRegistryUrl() + "/schemas/ids/" + id)
                    .path("schema")
                    .asText());
    GenericRecord decoded =
        new GenericDatumReader<GenericRecord>(writer)
            .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));

    assertThat(decoded.get("type").toString()).isEqualTo("UPSERT");
    assertThat(decoded.get("url").toString()).isEqualTo(upsert.getUrl());
    GenericRecord document = (GenericRecord) decoded.get("document");
    assertThat(document.get("title").toString()).isEqualTo(upsert.getDocument().getTitle());
    assertThat(document.get("version")).isEqualTo(upsert.getDocument().getVersion());
    assertThat(document.get("fetchedAt"))
        .isEqualTo(upsert.getDocument().getFetchedAt().toEpochMilli());
    assertThat(decoded).isEqualTo(asGeneric(upsert));
  }

  @Test
  void registryErrorsNameTheUrlAndTheStatus() {
    assertThatThrownBy(() -> cluster.registryClient().schemaById(987_654))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("GET " + cluster.schemaRegistryUrl() + "/schemas/ids/987654")
        .hasMessageContaining("answered 404")
        .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(404));
  }

  @Test
  void anUndecodableRecordIsNamedAndGoesToTheDeadLetterTopic() {
    Topics own = cluster.topics("poison");
    byte[] poison = "{\"url\": \"not avro\"}".getBytes(StandardCharsets.UTF_8);
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      producer.send(
          new ProducerRecord<>(own.parsed().name(), 0, key("https://example.org"), poison));
    }
    ConsumerRecord<byte[], byte[]> raw = consumeAll(own.parsed().name(), 1).get(0);

    UndecodableRecordException error = null;
    try {
      new RecordDecoder<>(own.parsed()).decode(raw);
    } catch (UndecodableRecordException e) {
      error = e;
    }

    assertThat(error).isNotNull();
    assertThat(error.getMessage())
        .contains(own.parsed().name() + " partition 0 offset " + raw.offset());
    DeadLetter letter = DeadLetters.of(raw, error, "committer", Instant.now());
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      Serializer<DeadLetter> serializer = own.deadLetters().valueSerde().serializer();
      producer.send(
          new ProducerRecord<>(
              own.deadLetters().name(),
              raw.key(),
              serializer.serialize(own.deadLetters().name(), letter)));
    }
    DeadLetter stored =
        new RecordDecoder<>(own.deadLetters())
            .decode(consumeAll(own.deadLetters().name(), 1).get(0))
            .value();
    assertThat(stored.getTopic()).isEqualTo(own.parsed().name());
    assertThat(stored.getOffset()).isEqualTo(raw.offset());
    assertThat(stored.getValue()).isEqualTo(ByteBuffer.wrap(poison));
    assertThat(stored.getError()).contains("magic byte is 0x7b");
  }

  private static GenericRecord asGeneric(SpecificRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return new GenericDatumReader<GenericRecord>(record.getSchema())
        .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
  }

  private static JsonNode getJson(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET " + url + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static byte[] key(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all"),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  /**
   * Reads the topic from the start until at least {@code count} records came, or fails after 30 s.
   */
  private static List<ConsumerRecord<byte[], byte[]>> consumeAll(String topic, int count) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            cluster.uniqueId("reader"),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (records.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    assertThat(records).as("records on " + topic).hasSizeGreaterThanOrEqualTo(count);
    records.sort(
        Comparator.comparingInt(ConsumerRecord<byte[], byte[]>::partition)
            .thenComparingLong(ConsumerRecord::offset));
    return records;
  }
}
