package dev.crawler.schemas.serde;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.jspecify.annotations.Nullable;

/**
 * Serializes a service's own state records (the values of its Kafka Streams stores and their
 * changelog topics) in Avro's single-object encoding: a two-byte marker, the 8-byte fingerprint of
 * the writer schema, then Avro binary. No registry is involved because no other program reads these
 * bytes; the fingerprint lets a later version of the service that {@linkplain #accept(Schema) knows
 * the older schema} read what an older version wrote.
 *
 * <p>Null stays null (a store delete). Thread-safe.
 *
 * @param <T> the generated state record class
 */
public final class StateSerde<T extends SpecificRecord>
    implements Serde<T>, Serializer<T>, Deserializer<T> {

  static {
    AvroSerde.trustCrawlerClasses();
  }

  private final Class<T> type;
  private final BinaryMessageEncoder<T> encoder;
  private final BinaryMessageDecoder<T> decoder;

  private StateSerde(Class<T> type) {
    this.type = type;
    SpecificData data = SpecificData.getForClass(type);
    Schema schema = data.getSchema(type);
    this.encoder = new BinaryMessageEncoder<>(data, schema);
    this.decoder = new BinaryMessageDecoder<>(data, schema);
  }

  /** The serde for one generated state record class. */
  public static <T extends SpecificRecord> StateSerde<T> of(Class<T> type) {
    return new StateSerde<>(type);
  }

  /** Lets this serde read records written with an earlier version of the schema. */
  public StateSerde<T> accept(Schema olderSchema) {
    decoder.addSchema(olderSchema);
    return this;
  }

  @Override
  public byte @Nullable [] serialize(String topic, @Nullable T record) {
    if (record == null) {
      return null;
    }
    try {
      ByteBuffer buffer = encoder.encode(record);
      RecordSize.check(buffer.remaining(), type, topic);
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public @Nullable T deserialize(String topic, byte @Nullable [] bytes) {
    if (bytes == null) {
      return null;
    }
    try {
      return decoder.decode(bytes);
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "state record on " + topic + " cannot be decoded: " + e.getMessage(), e);
    }
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }
}
