package dev.crawler.archive.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.ArchivedExchanges;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.FetchResult;
import dev.crawler.events.HttpExchange;
import dev.crawler.events.HttpHeader;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * The archive writer's exactly-once rule, without a broker: Kafka's {@link MockConsumer} and a
 * transactional {@link MockProducer}. Offsets move only in a committed transaction, after the file
 * holding their records is synced and with the dead letters of the records between; a failed commit
 * moves nothing, discards the file and goes back to the committed offsets.
 */
class ArchiveLoopTest {

  private static final Instant NOW = Instant.parse("2026-11-28T10:00:00Z");

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private final TopicPartition results = new TopicPartition(topics.fetchResults().name(), 0);
  private final TopicPartition exchanges = new TopicPartition(topics.exchanges().name(), 0);
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final List<MockProducer<byte[], byte[]>> producers = new ArrayList<>(List.of(producer));

  @TempDir Path directory;

  private ArchiveLoop loop;

  @BeforeEach
  void start() {
    start(1 << 30);
  }

  /** Starts a loop whose files close at this size. */
  private void start(long maxFileBytes) {
    loop =
        new ArchiveLoop(
            consumer,
            () -> producers.remove(0),
            topics,
            new ArchiveLoop.Settings(directory, "test", "host", maxFileBytes, Duration.ofHours(1)),
            false,
            new SimpleMeterRegistry(),
            InstantSource.fixed(NOW));
    consumer.updateBeginningOffsets(Map.of(results, 0L, exchanges, 0L));
    loop.start();
    consumer.rebalance(List.of(results, exchanges));
  }

  @Test
  void commitsTheOffsetsOfAFileOnlyWhenItIsClosedAndUnderItsName() throws IOException {
    consumer.addRecord(result(0, "http://a.example/one"));
    consumer.addRecord(result(1, "http://a.example/two"));
    loop.turn();

    assertThat(producer.consumerGroupOffsetsHistory())
        .as("nothing committed while the file is open")
        .isEmpty();
    assertThat(finishedFiles()).isEmpty();

    loop.close();
    loop.run(); // wakes at once, closes the file on its way out

    assertThat(producer.transactionCommitted()).isTrue();
    List<Path> files = finishedFiles();
    assertThat(files).singleElement();
    assertThat(committed())
        .containsEntry(results, new OffsetAndMetadata(2, files.get(0).getFileName().toString()));
    assertThat(targetsIn(files.get(0)))
        .containsExactly("http://a.example/one", "http://a.example/two");
  }

  @Test
  void writesADeadLetterInTheTransactionThatMovesTheOffsetPastItsRecord() {
    consumer.addRecord(result(0, "http://a.example/one"));
    consumer.addRecord(
        new ConsumerRecord<>(
            exchanges.topic(), 0, 0, key(), "not avro".getBytes(StandardCharsets.UTF_8)));
    loop.turn();

    assertThat(producer.history()).as("no dead letter before the commit").isEmpty();

    loop.close();
    loop.run();

    assertThat(producer.transactionCommitted()).isTrue();
    assertThat(producer.history())
        .singleElement()
        .satisfies(letter -> assertThat(letter.topic()).isEqualTo(topics.deadLetters().name()));
    assertThat(committed()).containsKeys(results, exchanges);
    assertThat(committed().get(exchanges).offset()).isEqualTo(1);
  }

  @Test
  void aFailedCommitMovesNoOffsetDiscardsTheFileAndReadsTheRecordsAgain() throws IOException {
    MockProducer<byte[], byte[]> replacement =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    producers.add(replacement);
    consumer.addRecord(result(0, "http://a.example/one"));
    consumer.addRecord(
        new ConsumerRecord<>(
            exchanges.topic(), 0, 0, key(), "not avro".getBytes(StandardCharsets.UTF_8)));
    loop.turn();
    producer.commitTransactionException = new KafkaException("the broker refused");
    producer.abortTransactionException = new KafkaException("and the abort too");

    loop.close();
    loop.run();

    assertThat(producer.transactionCommitted()).isFalse();
    assertThat(producer.history()).as("the dead letter was not written").isEmpty();
    assertThat(replacement.consumerGroupOffsetsHistory()).isEmpty();
    assertThat(finishedFiles()).as("no file takes the records").isEmpty();
    assertThat(openFiles()).as("the half-committed file is gone").isEmpty();
  }

  @Test
  void aFailedCommitGoesBackToTheCommittedOffsets() throws IOException {
    MockProducer<byte[], byte[]> second =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    producers.clear();
    producers.add(second);
    start(1); // every turn's file is full: closed at the end of the turn
    consumer.commitSync(Map.of(results, new OffsetAndMetadata(1)));
    consumer.addRecord(result(1, "http://a.example/two"));
    consumer.addRecord(result(2, "http://a.example/three"));
    second.commitTransactionException = new KafkaException("the broker refused");

    loop.turn();

    assertThat(second.transactionCommitted()).isFalse();
    assertThat(finishedFiles()).isEmpty();
    assertThat(consumer.position(results)).as("read again from the committed offset").isEqualTo(1);
  }

  private Map<TopicPartition, OffsetAndMetadata> committed() {
    Map<TopicPartition, OffsetAndMetadata> all = new java.util.HashMap<>();
    producer
        .consumerGroupOffsetsHistory()
        .forEach(byGroup -> byGroup.values().forEach(all::putAll));
    return all;
  }

  private ConsumerRecord<byte[], byte[]> result(long offset, String url) {
    FetchResult result =
        FetchResult.newBuilder()
            .setUrl(url)
            .setStatus(200)
            .setBody(ByteBuffer.wrap("<p>hi</p>".getBytes(StandardCharsets.UTF_8)))
            .setExchanges(List.of(exchange(url)))
            .build();
    return new ConsumerRecord<>(
        results.topic(),
        0,
        offset,
        key(),
        topics.fetchResults().valueSerde().serializer().serialize(results.topic(), result));
  }

  @SuppressWarnings("unused") // documents the other kind of record the loop reads
  private static ArchivedExchanges robots(String url) {
    return ArchivedExchanges.newBuilder()
        .setUrl(url)
        .setPurpose(ExchangePurpose.ROBOTS)
        .setExchanges(List.of(exchange(url)))
        .build();
  }

  private static HttpExchange exchange(String url) {
    return HttpExchange.newBuilder()
        .setUrl(url)
        .setMethod("GET")
        .setHttpVersion("HTTP/1.1")
        .setPeerAddress("127.0.0.1")
        .setStartedAt(NOW)
        .setRequestHeaders(List.of(new HttpHeader("User-Agent", "test-bot/1.0")))
        .setStatus(200)
        .setReason("OK")
        .setResponseHeaders(List.of(new HttpHeader("Content-Type", "text/html")))
        .setRawBody(null)
        .build();
  }

  private static byte[] key() {
    return "http://a.example".getBytes(StandardCharsets.UTF_8);
  }

  private List<Path> finishedFiles() throws IOException {
    return filesEndingWith(".warc.gz");
  }

  private List<Path> openFiles() throws IOException {
    return filesEndingWith(".open");
  }

  private List<Path> filesEndingWith(String suffix) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(file -> file.getFileName().toString().endsWith(suffix)).toList();
    }
  }

  private static List<String> targetsIn(Path file) throws IOException {
    List<String> targets = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file);
        WarcReader reader = new WarcReader(in)) {
      for (WarcRecord record : reader) {
        if (record.type().equals("response")) {
          targets.add(record.headers().first("WARC-Target-URI").orElse(""));
        }
      }
    }
    return targets;
  }
}
