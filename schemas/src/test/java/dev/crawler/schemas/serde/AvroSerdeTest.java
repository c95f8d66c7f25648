package dev.crawler.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.SampleEvents;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroSerdeTest {

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();

  static List<SpecificRecord> everyEventType() {
    return SampleEvents.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyEventType")
  <T extends SpecificRecord> void roundTripsEveryEventType(T record) {
    @SuppressWarnings("unchecked")
    AvroSerde<T> serde = AvroSerde.forValues(registry, (Class<T>) record.getClass());

    byte[] bytes = serde.serialize("crawl.any", record);

    assertThat(serde.deserialize("crawl.any", bytes)).isEqualTo(record);
  }

  @Test
  void framesRecordsExactlyAsTheConfluentWireFormat() {
    // another schema first, so that the id under test is not 1 and its byte order shows
    for (int i = 0; i < 257; i++) {
      registry.register(
          "filler-" + i, SchemaBuilder.record("Filler" + i).fields().requiredInt("x").endRecord());
    }
    AvroSerde<CrawlOutcome> serde = AvroSerde.forValues(registry, CrawlOutcome.class);
    CrawlOutcome outcome =
        CrawlOutcome.newBuilder()
            .setUrl("http://a.example/")
            .setRequestId("r1")
            .setOutcome(Outcome.REDIRECT)
            .setDetail("301 http://b/")
            .setTime(Instant.ofEpochMilli(1_700_000_000_000L))
            .setDepth(2)
            .setAttempt(1)
            .setStatus(301)
            .setService("fetcher")
            .build();

    byte[] bytes = serde.serialize("crawl.outcomes", outcome);

    int id = registry.register("crawl.outcomes-value", CrawlOutcome.getClassSchema());
    assertThat(id).isEqualTo(258);
    // Avro binary encoding written out by hand from the specification, field by field
    ByteArrayOutputStream avro = new ByteArrayOutputStream();
    string(avro, "http://a.example/");
    string(avro, "r1");
    varint(avro, Outcome.REDIRECT.ordinal()); // enum: symbol index
    varint(avro, 1); // union branch 1: string
    string(avro, "301 http://b/");
    varint(avro, 1_700_000_000_000L); // timestamp-millis: long
    varint(avro, 2); // depth
    varint(avro, 1); // attempt
    varint(avro, 1); // union branch 1: int
    varint(avro, 301);
    varint(avro, 0); // contentChecksum: null branch
    varint(avro, 0); // etag: null
    varint(avro, 0); // lastModified: null
    string(avro, "fetcher");
    varint(avro, 0); // retryAt: null
    varint(avro, 0); // originDelayMillis: null
    byte[] expected = concat(new byte[] {0, 0, 0, 1, 2}, avro.toByteArray());

    assertThat(bytes).containsExactly(expected);
  }

  @Test
  void registersUnderTheTopicNameStrategySubject() {
    AvroSerde<DiscoveredUrl> values = AvroSerde.forValues(registry, DiscoveredUrl.class);
    AvroSerde<DiscoveredUrl> keys = new AvroSerde<>(registry, DiscoveredUrl.class, true);
    assertThat(values.subject("crawl.discovered")).isEqualTo("crawl.discovered-value");
    assertThat(keys.subject("crawl.discovered")).isEqualTo("crawl.discovered-key");
  }

  @Test
  void aReaderWithAnAddedDefaultedFieldReadsOldBytes() throws IOException {
    // the schema as an older release had it: without the sitemap fields
    Schema old =
        SchemaBuilder.record("DiscoveredUrl")
            .namespace("dev.crawler.events")
            .fields()
            .requiredString("url")
            .optionalString("sourceUrl")
            .name("depth")
            .type()
            .intType()
            .intDefault(0)
            .name("kind")
            .type(DiscoveredUrl.getClassSchema().getField("kind").schema())
            .withDefault("LINK")
            .optionalString("anchor")
            .name("discoveredAt")
            .type()
            .longType()
            .longDefault(0)
            .endRecord();
    GenericRecord written = new GenericData.Record(old);
    written.put("url", "https://example.org/old");
    written.put("sourceUrl", null);
    written.put("depth", 4);
    written.put("kind", new GenericData.EnumSymbol(old.getField("kind").schema(), "FRAME"));
    written.put("anchor", "old anchor");
    written.put("discoveredAt", 1_000L);
    byte[] bytes = frame(registry.register("crawl.discovered-value", old), old, written);

    DiscoveredUrl read =
        AvroSerde.forValues(registry, DiscoveredUrl.class).deserialize("crawl.discovered", bytes);

    assertThat(read.getUrl()).isEqualTo("https://example.org/old");
    assertThat(read.getDepth()).isEqualTo(4);
    assertThat(read.getKind()).isEqualTo(UrlKind.FRAME);
    assertThat(read.getAnchor()).isEqualTo("old anchor");
    assertThat(read.getDiscoveredAt()).isEqualTo(Instant.ofEpochMilli(1_000L));
    assertThat(read.getSitemapPriority()).isNull();
    assertThat(read.getSitemapChangeFrequency()).isNull();
  }

  @Test
  void aParsedDocumentWrittenWithItsTextAsAStringIsReadWithItsTextInUtf8() throws IOException {
    // the schema before the text travelled as bytes: the same record with a string text
    Schema old =
        new Schema.Parser()
            .parse(
                ParsedDocument.getClassSchema()
                    .toString()
                    .replace(
                        "{\"name\":\"text\",\"type\":\"bytes\"",
                        "{\"name\":\"text\",\"type\":{\"type\":\"string\",\"avro.java.string\":\"String\"}"));
    assertThat(old.getField("text").schema().getType()).isEqualTo(Schema.Type.STRING);
    AvroSerde<ParsedDocument> serde = AvroSerde.forValues(registry, ParsedDocument.class);
    ParsedDocument current = SampleEvents.parsed();
    current.setText(ByteBuffer.wrap("caf\u00e9 \u201cold\u201d".getBytes(StandardCharsets.UTF_8)));
    byte[] bytes = serde.serialize("crawl.parsed", current);
    // a string and bytes are encoded alike: these are the bytes an older parser wrote, under its id
    ByteBuffer.wrap(bytes, 1, 4).putInt(registry.register("crawl.parsed-old", old));

    ParsedDocument read = serde.deserialize("crawl.parsed", bytes);

    assertThat(read).isEqualTo(current);
    assertThat(read.getText())
        .isEqualTo(ByteBuffer.wrap("caf\u00e9 \u201cold\u201d".getBytes(StandardCharsets.UTF_8)));
    assertThat(read.getUrl()).isEqualTo(current.getUrl());
  }

  @Test
  void anOldReaderReadsNewBytesAndSkipsTheFieldsItDoesNotKnow() throws IOException {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    byte[] bytes = serde.serialize("crawl.discovered", SampleEvents.discovered());
    Schema old =
        SchemaBuilder.record("DiscoveredUrl")
            .namespace("dev.crawler.events")
            .fields()
            .requiredString("url")
            .endRecord();

    GenericRecord read =
        new GenericDatumReader<GenericRecord>(DiscoveredUrl.getClassSchema(), old)
            .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));

    assertThat(read.get("url").toString()).isEqualTo(SampleEvents.discovered().getUrl());
  }

  @Test
  void aNewerEnumSymbolReadsAsTheDefault() throws IOException {
    Schema newer =
        SchemaBuilder.record("CrawlLogEntry")
            .namespace("dev.crawler.events")
            .fields()
            .requiredString("url")
            .name("outcome")
            .type()
            .enumeration("Outcome")
            .namespace("dev.crawler.events")
            .symbols("COMMITTED", "SOMETHING_NEW")
            .noDefault()
            .endRecord();
    GenericRecord written = new GenericData.Record(newer);
    written.put("url", "https://example.org/");
    written.put(
        "outcome", new GenericData.EnumSymbol(newer.getField("outcome").schema(), "SOMETHING_NEW"));
    byte[] bytes = frame(registry.register("crawl.log-value", newer), newer, written);

    var read = AvroSerde.forValues(registry, CrawlLogEntry.class).deserialize("crawl.log", bytes);

    assertThat(read.getOutcome()).isEqualTo(Outcome.ERROR);
  }

  @Test
  void readsAsUtf8TheSameValuesItReadsAsJavaStrings() {
    AvroSerde<DocumentEvent> serde = AvroSerde.forValues(registry, DocumentEvent.class);
    DocumentEvent upsert = SampleEvents.upsert();
    upsert.getDocument().setText("caf\u00e9 \u201cquoted\u201d \uD83D\uDE00 \"and\" \\ line\nend");
    upsert.getDocument().setPages(List.of("https://example.org/a", "https://example.org/a?page=2"));

    GenericRecord event =
        serde.deserializeUtf8("crawl.documents", serde.serialize("crawl.documents", upsert));

    assertThat(event.get("url")).isInstanceOf(Utf8.class).hasToString(upsert.getUrl());
    assertThat(event.get("type")).hasToString("UPSERT");
    GenericRecord document = (GenericRecord) event.get("document");
    Utf8 text = (Utf8) document.get("text");
    assertThat(Arrays.copyOf(text.getBytes(), text.getByteLength()))
        .isEqualTo(upsert.getDocument().getText().getBytes(StandardCharsets.UTF_8));
    assertThat(document.get("title")).hasToString(upsert.getDocument().getTitle());
    assertThat(document.get("fetchedAt"))
        .isEqualTo(upsert.getDocument().getFetchedAt().toEpochMilli());
    assertThat((List<?>) document.get("pages"))
        .map(Object::toString)
        .isEqualTo(upsert.getDocument().getPages());
    assertThat(serde.deserializeUtf8("crawl.documents", null)).isNull();
  }

  @Test
  void readingAsUtf8RejectsWhatReadingRejects() {
    AvroSerde<DocumentEvent> serde = AvroSerde.forValues(registry, DocumentEvent.class);
    byte[] bytes = serde.serialize("crawl.documents", SampleEvents.upsert());

    assertThatThrownBy(
            () -> serde.deserializeUtf8("crawl.documents", Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("cannot decode DocumentEvent");
    assertThatThrownBy(() -> serde.deserializeUtf8("crawl.documents", new byte[] {1, 0, 0, 0, 1}))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("magic byte is 0x01");
  }

  @Test
  void nullIsATombstoneBothWays() {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    assertThat(serde.serialize("crawl.documents", null)).isNull();
    assertThat(serde.deserialize("crawl.documents", null)).isNull();
  }

  @Test
  void rejectsBytesWithoutTheMagicByteNamingTheTopic() {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    assertThatThrownBy(
            () ->
                serde.deserialize(
                    "crawl.discovered", "{\"url\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("crawl.discovered")
        .hasMessageContaining("magic byte is 0x7b");
  }

  @Test
  void rejectsBytesTooShortForTheHeader() {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    assertThatThrownBy(() -> serde.deserialize("crawl.discovered", new byte[] {0, 0, 1}))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("3 bytes is too short");
  }

  @Test
  void rejectsAnUnknownSchemaId() {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    assertThatThrownBy(
            () -> serde.deserialize("crawl.discovered", new byte[] {0, 0, 0, 0, 99, 2, 'a'}))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("writer schema 99 is unavailable");
  }

  @Test
  void rejectsTruncatedAvro() {
    AvroSerde<DiscoveredUrl> serde = AvroSerde.forValues(registry, DiscoveredUrl.class);
    byte[] bytes = serde.serialize("crawl.discovered", SampleEvents.discovered());
    byte[] truncated = Arrays.copyOf(bytes, bytes.length / 2);
    assertThatThrownBy(() -> serde.deserialize("crawl.discovered", truncated))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("cannot decode DiscoveredUrl");
  }

  @Test
  void rejectsAWriterSchemaThatCannotBeReadAsTheTargetType() {
    Schema unrelated = SchemaBuilder.record("Other").fields().requiredInt("x").endRecord();
    byte[] bytes = new byte[] {0, 0, 0, 0, (byte) registry.register("x-value", unrelated), 4};
    assertThatThrownBy(
            () ->
                AvroSerde.forValues(registry, DiscoveredUrl.class)
                    .deserialize("crawl.discovered", bytes))
        .isInstanceOf(UndecodableRecordException.class)
        .hasMessageContaining("crawl.discovered");
  }

  @Test
  void anUndecodableRecordIsNamedByTopicPartitionAndOffsetAndBecomesADeadLetter() {
    TopicSpec<String, DiscoveredUrl> topic = Topics.create(registry).discovered();
    byte[] garbage = {1, 2, 3, 4, 5, 6};
    ConsumerRecord<byte[], byte[]> raw =
        new ConsumerRecord<>(
            topic.name(),
            7,
            4242L,
            0L,
            TimestampType.CREATE_TIME,
            3,
            6,
            "k".getBytes(StandardCharsets.UTF_8),
            garbage,
            new RecordHeaders(),
            Optional.empty());

    UndecodableRecordException error = null;
    try {
      new RecordDecoder<>(topic).decode(raw);
    } catch (UndecodableRecordException e) {
      error = e;
    }

    assertThat(error).isNotNull();
    assertThat(error.getMessage()).contains("crawl.discovered partition 7 offset 4242");
    assertThat(error.partition()).isEqualTo(7);
    assertThat(error.offset()).isEqualTo(4242L);
    DeadLetter letter = DeadLetters.of(raw, error, "frontier", SampleEvents.T);
    assertThat(letter.getTopic()).isEqualTo("crawl.discovered");
    assertThat(letter.getPartition()).isEqualTo(7);
    assertThat(letter.getOffset()).isEqualTo(4242L);
    assertThat(letter.getValue()).isEqualTo(ByteBuffer.wrap(garbage));
    assertThat(letter.getError()).contains("offset 4242").contains("magic byte");
    assertThat(letter.getErrorClass()).isEqualTo(UndecodableRecordException.class.getName());
    // and the dead letter itself is a record like any other
    AvroSerde<DeadLetter> deadLetters = AvroSerde.forValues(registry, DeadLetter.class);
    assertThat(
            deadLetters.deserialize(
                "crawl.dead-letters", deadLetters.serialize("crawl.dead-letters", letter)))
        .isEqualTo(letter);
  }

  @Test
  void decodesAGoodRecordWithItsPosition() {
    Topics topics = Topics.create(registry);
    TopicSpec<String, DiscoveredUrl> topic = topics.discovered();
    byte[] value =
        topic.valueSerde().serializer().serialize(topic.name(), SampleEvents.discovered());
    ConsumerRecord<byte[], byte[]> raw =
        new ConsumerRecord<>(
            topic.name(), 1, 5L, "https://example.org".getBytes(StandardCharsets.UTF_8), value);

    ConsumerRecord<String, DiscoveredUrl> decoded = new RecordDecoder<>(topic).decode(raw);

    assertThat(decoded.key()).isEqualTo("https://example.org");
    assertThat(decoded.value()).isEqualTo(SampleEvents.discovered());
    assertThat(decoded.offset()).isEqualTo(5L);
  }

  private static byte[] frame(int id, Schema schema, GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /**
   * Avro's variable-length zig-zag encoding of an int or long (Avro specification, "Primitive
   * Types").
   */
  private static void varint(ByteArrayOutputStream out, long value) {
    long zigzag = (value << 1) ^ (value >> 63);
    while ((zigzag & ~0x7FL) != 0) {
      out.write((int) ((zigzag & 0x7F) | 0x80));
      zigzag >>>= 7;
    }
    out.write((int) zigzag);
  }

  private static void string(ByteArrayOutputStream out, String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    varint(out, utf8.length);
    out.write(utf8, 0, utf8.length);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
