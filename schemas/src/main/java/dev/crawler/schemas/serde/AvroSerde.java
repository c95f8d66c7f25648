package dev.crawler.schemas.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.avro.util.Utf8;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Serializes Avro-generated records in the Confluent Schema Registry wire format, so that any
 * consumer using Confluent's {@code KafkaAvroDeserializer} (or Apicurio's, or Karapace's) reads
 * them:
 *
 * <pre>
 * byte 0      magic byte 0
 * bytes 1-4   schema id, big-endian, as the registry assigned it
 * bytes 5-    the record in Avro binary encoding
 * </pre>
 *
 * <p>The writer schema is registered under the topic name strategy's subject ({@code
 * <topic>-value}, or {@code <topic>-key} for a key serde) the first time a topic is written; ids
 * are cached by the registry client. Decoding resolves the writer's schema (fetched by id) against
 * this class's schema, so records written by an older or newer version of a schema are read as long
 * as the change is compatible.
 *
 * <p>A null record serializes to null (a tombstone) and null bytes deserialize to null. Bytes that
 * cannot be decoded raise {@link UndecodableRecordException}, naming the topic. Thread-safe.
 *
 * @param <T> the generated record class
 */
public final class AvroSerde<T extends SpecificRecord>
    implements Serde<T>, Serializer<T>, Deserializer<T> {

  /** The first byte of every record in the Confluent wire format. */
  public static final byte MAGIC_BYTE = 0;

  /** Magic byte plus schema id. */
  public static final int HEADER_LENGTH = 5;

  /**
   * The package prefix of the project's generated classes (events and state), which Avro must be
   * told to trust.
   */
  static final String TRUSTED_PACKAGE_PREFIX = "dev.crawler.";

  static {
    trustCrawlerClasses();
  }

  private final SchemaRegistryClient registry;
  private final Class<T> type;
  private final Schema schema;
  private final String subjectSuffix;
  private final SpecificData data;
  private final SpecificDatumWriter<T> writer;
  private final Map<String, Integer> idsByTopic = new ConcurrentHashMap<>();
  private final Map<Integer, DatumReader<T>> readersById = new ConcurrentHashMap<>();
  private final Map<Integer, DatumReader<GenericRecord>> utf8ReadersById =
      new ConcurrentHashMap<>();

  /**
   * @param registry where schemas are registered and looked up
   * @param type the generated class, e.g. {@code DiscoveredUrl.class}
   * @param isKey whether this serde is for record keys ({@code <topic>-key} subjects)
   */
  public AvroSerde(SchemaRegistryClient registry, Class<T> type, boolean isKey) {
    this.registry = registry;
    this.type = type;
    this.data = SpecificData.getForClass(type);
    this.schema = data.getSchema(type);
    this.subjectSuffix = isKey ? "-key" : "-value";
    this.writer = new SpecificDatumWriter<>(schema, data);
  }

  /** A value serde for {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forValues(
      SchemaRegistryClient registry, Class<T> type) {
    return new AvroSerde<>(registry, type, false);
  }

  /** The schema records are written with. */
  public Schema schema() {
    return schema;
  }

  /** The generated class this serde reads and writes. */
  public Class<T> type() {
    return type;
  }

  /** The subject the schema is registered under for {@code topic}. */
  public String subject(String topic) {
    return topic + subjectSuffix;
  }

  @Override
  public byte @Nullable [] serialize(String topic, @Nullable T record) {
    if (record == null) {
      return null;
    }
    int id = idsByTopic.computeIfAbsent(topic, t -> registry.register(subject(t), schema));
    Buffer out = BUFFER.get();
    out.reset();
    out.write(MAGIC_BYTE);
    out.write(id >>> 24);
    out.write(id >>> 16);
    out.write(id >>> 8);
    out.write(id);
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, out.encoder);
    out.encoder = encoder;
    try {
      writer.write(record, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "cannot serialize "
              + type.getSimpleName()
              + " for topic "
              + topic
              + ": "
              + e.getMessage(),
          e);
    }
    return RecordSize.checked(out.toByteArray(), type, topic);
  }

  /**
   * Each thread's buffer the records are encoded into, reused from record to record: a fetched page
   * is encoded once and copied once, into the array returned, rather than into an array doubled ten
   * times on the way. A buffer that grew past {@value #MAX_KEPT_BUFFER} bytes is let go afterwards.
   */
  private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

  private static final int MAX_KEPT_BUFFER = 1 << 20;

  /** An unsynchronized, reusable byte sink with the encoder that writes into it. */
  private static final class Buffer extends ByteArrayOutputStream {

    @Nullable BinaryEncoder encoder;

    Buffer() {
      super(16 * 1024);
    }

    @Override
    public void reset() {
      if (buf.length > MAX_KEPT_BUFFER) {
        buf = new byte[16 * 1024];
      }
      count = 0;
    }

    @Override
    public void write(int b) {
      ensureRoom(1);
      buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      ensureRoom(length);
      System.arraycopy(bytes, offset, buf, count, length);
      count += length;
    }

    @Override
    public byte[] toByteArray() {
      return Arrays.copyOf(buf, count);
    }

    private void ensureRoom(int length) {
      if (count + length > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + length));
      }
    }
  }

  @Override
  public @Nullable T deserialize(String topic, byte @Nullable [] bytes) {
    if (bytes == null) {
      return null;
    }
    int id = schemaId(topic, bytes);
    return read(
        topic, bytes, id, readersById, writer -> new SpecificDatumReader<>(writer, schema, data));
  }

  /**
   * Decodes like {@link #deserialize}, into a generic record whose strings are Avro's {@link Utf8}:
   * their UTF-8 bytes as written, never turned into Java strings. For a reader that copies text out
   * as UTF-8 (to a file, say), where decoding and encoding it again would be most of its work.
   * Enums are {@link org.apache.avro.generic.GenericEnumSymbol}s and logical types are not
   * converted (a timestamp is its long).
   */
  public @Nullable GenericRecord deserializeUtf8(String topic, byte @Nullable [] bytes) {
    if (bytes == null) {
      return null;
    }
    int id = schemaId(topic, bytes);
    return read(
        topic,
        bytes,
        id,
        utf8ReadersById,
        writer ->
            new GenericDatumReader<>(writer, withoutStringProperty(schema), GenericData.get()));
  }

  private int schemaId(String topic, byte[] bytes) {
    if (bytes.length < HEADER_LENGTH) {
      throw new UndecodableRecordException(
          topic, bytes.length + " bytes is too short for the Confluent wire format", null);
    }
    if (bytes[0] != MAGIC_BYTE) {
      throw new UndecodableRecordException(
          topic,
          String.format(
              Locale.ROOT,
              "magic byte is 0x%02x, not 0x00: not in the Confluent wire format",
              bytes[0]),
          null);
    }
    return ByteBuffer.wrap(bytes, 1, 4).getInt();
  }

  private <R> R read(
      String topic,
      byte[] bytes,
      int id,
      Map<Integer, DatumReader<R>> readers,
      Function<Schema, DatumReader<R>> newReader) {
    DatumReader<R> reader;
    try {
      reader = readers.computeIfAbsent(id, i -> newReader.apply(registry.schemaById(i)));
    } catch (SchemaRegistryException e) {
      throw new UndecodableRecordException(
          topic, "writer schema " + id + " is unavailable: " + e.getMessage(), e);
    } catch (AvroRuntimeException e) {
      throw new UndecodableRecordException(
          topic,
          "writer schema "
              + id
              + " cannot be read as "
              + type.getSimpleName()
              + ": "
              + e.getMessage(),
          e);
    }
    BinaryDecoder decoder =
        DecoderFactory.get()
            .binaryDecoder(bytes, HEADER_LENGTH, bytes.length - HEADER_LENGTH, null);
    try {
      R record = reader.read(null, decoder);
      if (!decoder.isEnd()) {
        throw new UndecodableRecordException(
            topic, "trailing bytes after a " + type.getSimpleName() + " (schema " + id + ")", null);
      }
      return record;
    } catch (IOException | RuntimeException e) {
      if (e instanceof UndecodableRecordException undecodable) {
        throw undecodable;
      }
      throw new UndecodableRecordException(
          topic,
          "cannot decode " + type.getSimpleName() + " with writer schema " + id + ": " + e,
          e);
    }
  }

  /**
   * A schema without the generated classes' demand for Java strings: Avro reads its strings as
   * Utf8.
   */
  private static Schema withoutStringProperty(Schema schema) {
    try {
      JsonNode tree = SCHEMA_JSON.readTree(schema.toString());
      removeStringProperty(tree);
      return new Schema.Parser().parse(tree.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void removeStringProperty(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove(GenericData.STRING_PROP);
    }
    node.forEach(AvroSerde::removeStringProperty);
  }

  private static final ObjectMapper SCHEMA_JSON = new ObjectMapper();

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    // configured at construction
  }

  @Override
  public void close() {
    // the registry client is shared and owned by whoever created it
  }

  /**
   * Avro 1.12 refuses to instantiate classes from packages it was not told to trust ({@code
   * org.apache.avro.SERIALIZABLE_PACKAGES}, read once when Avro's validator class loads). Trust the
   * generated event classes here, once, rather than asking every process to set a system property.
   */
  static synchronized void trustCrawlerClasses() {
    if (trusted) {
      return;
    }
    ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
    ClassSecurityValidator.ClassSecurityPredicate ours =
        c -> c.getPackageName().startsWith(TRUSTED_PACKAGE_PREFIX);
    ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(ours, previous));
    trusted = true;
  }

  private static boolean trusted;
}
