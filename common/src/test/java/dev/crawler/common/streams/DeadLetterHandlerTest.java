package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.schemas.serde.SchemaRegistryException;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.io.IOException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** Which failures lose the record to the dead letters, and which make Streams process it again. */
class DeadLetterHandlerTest {

  @Test
  void aRegistryWithoutAnswerOrFailingIsTransient() {
    assertThat(
            DeadLetterHandler.isTransient(
                new UndecodableRecordException(
                    "t",
                    "schema unavailable",
                    new SchemaRegistryException("no answer", new IOException("refused")))))
        .isTrue();
    assertThat(DeadLetterHandler.isTransient(new SchemaRegistryException("http://r/: 503", 503)))
        .isTrue();
    assertThat(DeadLetterHandler.isTransient(new RuntimeException(new TimeoutException("broker"))))
        .isTrue();
  }

  @Test
  void aBadRecordIsNot() {
    assertThat(
            DeadLetterHandler.isTransient(
                new UndecodableRecordException("t", "magic byte is 0x6e", null)))
        .isFalse();
    assertThat(
            DeadLetterHandler.isTransient(
                new SchemaRegistryException("http://r/: 409 incompatible", 409)))
        .isFalse();
    assertThat(DeadLetterHandler.isTransient(new IllegalStateException("bug"))).isFalse();
  }

  @Test
  void aRecordKafkaRefusesIsOneNoRetryWillWrite() {
    assertThat(
            DeadLetterHandler.isRefusedRecord(
                new SerializationException("too large", new RecordTooLargeException("17 MB"))))
        .isTrue();
    assertThat(DeadLetterHandler.isRefusedRecord(new RecordTooLargeException("17 MB"))).isTrue();
    assertThat(DeadLetterHandler.isRefusedRecord(new TimeoutException("broker"))).isFalse();
  }
}
