package dev.crawler.common.streams;

import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.events.DeadLetter;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.DeadLetters;
import dev.crawler.schemas.serde.SchemaRegistryException;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a record a Kafka Streams service cannot decode or process, or whose output Kafka refuses
 * (too large, invalid), to {@code crawl.dead-letters} (as a {@link DeadLetter} keeping its original
 * bytes and the error) and lets the service go on. The dead letter is written by Streams in the
 * same transaction as the task's other output (KIP-1034), so under exactly-once it is neither lost
 * nor written twice.
 *
 * <p>Install it with {@link #install(Properties, TopicSpec, String)}.
 */
public final class DeadLetterHandler
    implements DeserializationExceptionHandler,
        ProcessingExceptionHandler,
        ProductionExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandler.class);

  static final String TOPIC_CONFIG = "crawler.dead.letters.topic";
  static final String SERIALIZER_CONFIG = "crawler.dead.letters.serializer";
  static final String SERVICE_CONFIG = "crawler.dead.letters.service";

  private String topic = "";
  private @Nullable Serializer<DeadLetter> serializer;
  private String service = "";

  /** Makes the Streams application configured by {@code properties} use this handler. */
  public static void install(
      Properties properties, TopicSpec<String, DeadLetter> deadLetters, String service) {
    properties.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
    properties.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    properties.put(
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
    properties.put(TOPIC_CONFIG, deadLetters.name());
    properties.put(SERIALIZER_CONFIG, deadLetters.valueSerde().serializer());
    properties.put(SERVICE_CONFIG, service);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void configure(Map<String, ?> configs) {
    this.topic = String.valueOf(configs.get(TOPIC_CONFIG));
    this.serializer = (Serializer<DeadLetter>) configs.get(SERIALIZER_CONFIG);
    this.service = String.valueOf(configs.get(SERVICE_CONFIG));
    if (serializer == null) {
      throw new IllegalStateException(
          "DeadLetterHandler needs "
              + SERIALIZER_CONFIG
              + "; install it with DeadLetterHandler.install");
    }
  }

  @Override
  public DeserializationExceptionHandler.Response handleError(
      ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
    if (isTransient(exception)) {
      LOG.warn(
          "transient failure decoding {} offset {}, the record will be read again: {}",
          context.topic(),
          context.offset(),
          exception.toString());
      return DeserializationExceptionHandler.Response.fail();
    }
    LOG.warn("dead letter: {}", exception.getMessage());
    CrawlMetrics.deadLetter(service);
    return DeserializationExceptionHandler.Response.resume(List.of(deadLetter(context, exception)));
  }

  @Override
  public ProcessingExceptionHandler.Response handleError(
      ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    if (isTransient(exception)) {
      // the record is fine, the moment is not (the registry or the cluster
      // is unreachable): fail, so the stream thread is replaced and the
      // record processed again, rather than lose it to the dead letters
      LOG.warn(
          "transient failure on {} offset {}, the record will be processed again: {}",
          context.topic(),
          context.offset(),
          exception.toString());
      return ProcessingExceptionHandler.Response.fail();
    }
    LOG.warn(
        "dead letter after a processing failure on {} offset {}",
        context.topic(),
        context.offset(),
        exception);
    CrawlMetrics.deadLetter(service);
    return ProcessingExceptionHandler.Response.resume(List.of(deadLetter(context, exception)));
  }

  /**
   * A record the task produced that Kafka will not take whatever the retries: larger than the
   * broker accepts, or refused as invalid. The record that caused it goes to the dead letters with
   * the reason, and the task goes on; without this, the stream thread died, was replaced and tried
   * the same record again, for ever, and the partitions behind it stood still. Any other failure
   * fails the task as before (it is retried, or restored).
   */
  @Override
  public ProductionExceptionHandler.Response handleError(
      ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    if (!isRefusedRecord(exception)) {
      return ProductionExceptionHandler.Response.fail();
    }
    String reason =
        "the record it caused on "
            + record.topic()
            + " ("
            + size(record)
            + " bytes) was refused: "
            + exception;
    LOG.warn(
        "dead letter after a record Kafka refused, caused by {} offset {}: {}",
        context.topic(),
        context.offset(),
        reason);
    CrawlMetrics.deadLetter(service);
    return ProductionExceptionHandler.Response.resume(
        List.of(deadLetter(context, new IllegalStateException(reason, exception))));
  }

  /** A record that cannot be serialized is a record nothing will ever write: a dead letter. */
  @Override
  public ProductionExceptionHandler.Response handleSerializationError(
      ErrorHandlerContext context,
      ProducerRecord record,
      Exception exception,
      ProductionExceptionHandler.SerializationExceptionOrigin origin) {
    if (isTransient(exception)) {
      return ProductionExceptionHandler.Response.fail();
    }
    LOG.warn(
        "dead letter after a record that cannot be serialized, caused by {} offset {}",
        context.topic(),
        context.offset(),
        exception);
    CrawlMetrics.deadLetter(service);
    return ProductionExceptionHandler.Response.resume(List.of(deadLetter(context, exception)));
  }

  /** Whether Kafka refused the record itself, so that no retry can write it. */
  static boolean isRefusedRecord(Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof RecordTooLargeException
          || cause instanceof RecordBatchTooLargeException
          || cause instanceof InvalidRecordException) {
        return true;
      }
    }
    return false;
  }

  private static int size(ProducerRecord<byte[], byte[]> record) {
    return (record.key() == null ? 0 : record.key().length)
        + (record.value() == null ? 0 : record.value().length);
  }

  /**
   * Whether a failure comes from the moment (registry or cluster unreachable) rather than the
   * record.
   */
  static boolean isTransient(Throwable exception) {
    for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
      if (cause instanceof SchemaRegistryException registry
          && (registry.status() <= 0 || registry.status() >= 500)) {
        return true; // no answer, or the registry's own failure; a 4xx is about the schema, and
        // stays one
      }
      if (cause instanceof RetriableException || cause instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The largest original value a dead letter keeps: a dead letter is one more record, and must fit
   * where the original did, with its error beside it.
   */
  static final int MAX_KEPT_VALUE_BYTES = TopicSpec.MAX_MESSAGE_BYTES / 2;

  private ProducerRecord<byte[], byte[]> deadLetter(
      ErrorHandlerContext context, Exception exception) {
    byte[] value = context.sourceRawValue();
    Exception error = exception;
    if (value != null && value.length > MAX_KEPT_VALUE_BYTES) {
      error =
          new IllegalStateException(
              exception.getMessage()
                  + " (the original value, "
                  + value.length
                  + " bytes, is not kept)",
              exception);
      value = null;
    }
    DeadLetter letter =
        DeadLetters.of(
            context.topic(),
            context.partition(),
            context.offset(),
            context.sourceRawKey(),
            value,
            context.headers() == null ? new RecordHeaders() : context.headers(),
            error,
            service,
            Instant.now());
    byte[] serialized = serializer.serialize(topic, letter);
    return new ProducerRecord<>(topic, null, context.sourceRawKey(), serialized);
  }
}
