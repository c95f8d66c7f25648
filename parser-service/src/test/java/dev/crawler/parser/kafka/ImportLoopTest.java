package dev.crawler.parser.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.parser.domain.FileImport;
import dev.crawler.parser.domain.FileImporter;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The import loop's own decisions, without a broker or an import process: Kafka's {@link
 * MockConsumer} and {@link MockProducer}, and an importer whose answers the test gives.
 */
class ImportLoopTest {

  private static final String ORIGIN = "http://a.example";
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private final TopicPartition partition = new TopicPartition(topics.imports().name(), 0);
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final AtomicInteger imports = new AtomicInteger();
  private FileImport answer =
      new FileImport.Extracted(
          "application/pdf",
          "<html><head><title>Report</title></head><body><p>The harbour report.</p>"
              + "<div class=\"annotation\"><a href=\"/next\">/next</a></div></body></html>",
          Optional.empty(),
          Optional.of("Harbour Office"),
          Optional.empty(),
          Optional.empty(),
          Optional.of(3),
          Optional.empty(),
          false);
  private ImportLoop loop;

  @BeforeEach
  void start() {
    FileImporter importer =
        new FileImporter() {
          @Override
          public FileImport importFile(String url, String mediaType, byte[] body) {
            imports.incrementAndGet();
            return answer;
          }

          @Override
          public void close() {}
        };
    loop =
        new ImportLoop(
            consumer,
            () -> producer,
            topics,
            importer,
            PageParser.withDefaults(),
            new SimpleMeterRegistry(),
            2,
            InstantSource.fixed(NOW));
    loop.start();
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.rebalance(List.of(partition));
  }

  @AfterEach
  void stop() {
    loop.close();
  }

  @Test
  void writesAFilesDocumentAndLinksWithItsOffsetInOneTransaction() {
    consumer.addRecord(record(0, file("/report.pdf")));

    loop.turn();

    assertThat(producer.transactionCommitted()).isTrue();
    ParsedDocument document = single(topics.parsed().name(), ParsedDocument.class);
    assertThat(document.getUrl()).isEqualTo(ORIGIN + "/report.pdf");
    assertThat(document.getTitle()).isEqualTo("Report");
    assertThat(document.getAuthor()).isEqualTo("Harbour Office");
    assertThat(document.getFilePageCount()).isEqualTo(3);
    assertThat(StandardCharsets.UTF_8.decode(document.getText()).toString())
        .isEqualTo("The harbour report.");
    assertThat(single(topics.discovered().name(), DiscoveredUrl.class).getUrl())
        .isEqualTo(ORIGIN + "/next");
    assertThat(producer.consumerGroupOffsetsHistory())
        .containsExactly(
            Map.of(
                consumer.groupMetadata().groupId(), Map.of(partition, new OffsetAndMetadata(1))));
  }

  @Test
  void aFileThatCannotBeReadIsRejectedWithTheReason() {
    answer = new FileImport.Failed("TIKA_TIMEOUT after 30 s (parser.import.timeout.ms)");
    consumer.addRecord(record(0, file("/slow.pdf")));

    loop.turn();

    CrawlOutcome outcome = single(topics.outcomes().name(), CrawlOutcome.class);
    assertThat(outcome.getOutcome()).isEqualTo(Outcome.IMPORT_REJECTED);
    assertThat(outcome.getDetail()).isEqualTo("TIKA_TIMEOUT after 30 s (parser.import.timeout.ms)");
    assertThat(outcome.getService()).isEqualTo("parser");
    assertThat(sent(topics.parsed().name())).isEmpty();
    assertThat(sent(topics.log().name())).hasSize(1);
  }

  @Test
  void aTransactionThatFailsReadsTheSameFilesAgain() {
    consumer.addRecord(record(0, file("/a.pdf")));
    consumer.addRecord(record(1, file("/b.pdf")));
    producer.commitTransactionException = new KafkaException("the broker is away");

    loop.turn();

    assertThat(producer.transactionAborted()).isTrue();
    assertThat(producer.consumerGroupOffsetsHistory()).isEmpty();
    assertThat(consumer.position(partition)).as("rewound to the committed offset").isZero();

    producer.commitTransactionException = null;
    // the broker hands out the same records again from the committed offset
    consumer.addRecord(record(0, file("/a.pdf")));
    consumer.addRecord(record(1, file("/b.pdf")));
    loop.turn();

    assertThat(imports).hasValue(4);
    assertThat(producer.transactionCommitted()).isTrue();
    assertThat(producer.consumerGroupOffsetsHistory())
        .containsExactly(
            Map.of(
                consumer.groupMetadata().groupId(), Map.of(partition, new OffsetAndMetadata(2))));
    assertThat(sent(topics.parsed().name())).hasSize(2);
  }

  @Test
  void anUndecodableRecordIsADeadLetterAndTheOthersGoOn() {
    consumer.addRecord(
        new ConsumerRecord<>(
            partition.topic(), 0, 0, ORIGIN.getBytes(StandardCharsets.UTF_8), new byte[] {9, 9}));
    consumer.addRecord(record(1, file("/report.pdf")));

    loop.turn();

    assertThat(single(topics.deadLetters().name(), DeadLetter.class).getOffset()).isZero();
    assertThat(sent(topics.parsed().name())).hasSize(1);
    assertThat(producer.consumerGroupOffsetsHistory())
        .containsExactly(
            Map.of(
                consumer.groupMetadata().groupId(), Map.of(partition, new OffsetAndMetadata(2))));
  }

  private FetchResult file(String path) {
    return FetchResult.newBuilder()
        .setUrl(ORIGIN + path)
        .setRequestId("req-" + path)
        .setDepth(1)
        .setAttempt(1)
        .setStatus(200)
        .setHeaders(new HashMap<>())
        .setBody(ByteBuffer.wrap("%PDF-1.7 …".getBytes(StandardCharsets.UTF_8)))
        .setContentType("application/pdf")
        .setFetchedAt(NOW)
        .setDurationMillis(20)
        .setOptions(new HashMap<>())
        .build();
  }

  private ConsumerRecord<byte[], byte[]> record(long offset, FetchResult result) {
    return new ConsumerRecord<>(
        partition.topic(),
        0,
        offset,
        ORIGIN.getBytes(StandardCharsets.UTF_8),
        topics.imports().valueSerde().serializer().serialize(partition.topic(), result));
  }

  private List<ProducerRecord<byte[], byte[]>> sent(String topic) {
    List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
    for (ProducerRecord<byte[], byte[]> record : producer.history()) {
      if (record.topic().equals(topic)) {
        sent.add(record);
      }
    }
    return sent;
  }

  private <V> V single(String topic, Class<V> type) {
    List<ProducerRecord<byte[], byte[]>> sent = sent(topic);
    assertThat(sent).hasSize(1);
    Object value =
        topics.all().stream()
            .filter(spec -> spec.name().equals(topic))
            .findFirst()
            .orElseThrow()
            .valueSerde()
            .deserializer()
            .deserialize(topic, sent.get(0).value());
    return type.cast(value);
  }
}
