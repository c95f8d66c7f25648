package dev.crawler.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TopicReaderTest {

  private final TopicPartition partition = new TopicPartition("crawl.control", 0);
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final TopicReader reader = new TopicReader(consumer, "the test topic");

  @Test
  void readsEveryRecordUpToTheEndItHadWhenReadingStarted() {
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, 2L));
    consumer.schedulePollTask(
        () -> {
          consumer.addRecord(record(0, "a"));
          consumer.addRecord(record(1, "b"));
        });
    List<String> read = new ArrayList<>();

    TopicReader.Result result =
        reader.readToEnd(
            List.of(partition),
            Duration.ofSeconds(5),
            record -> read.add(new String(record.value(), StandardCharsets.UTF_8)));

    assertThat(read).containsExactly("a", "b");
    assertThat(result.isComplete()).isTrue();
    assertThat(result.read()).isEqualTo(2);
  }

  @Test
  void saysWhatItLeftUnreadWhenItGivesUp() {
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, 5L));
    consumer.schedulePollTask(() -> consumer.addRecord(record(0, "a")));

    TopicReader.Result result =
        reader.readToEnd(List.of(partition), Duration.ofMillis(300), record -> true);

    assertThat(result.isComplete()).isFalse();
    assertThat(result.read()).isEqualTo(1);
    assertThat(result.left()).containsEntry(partition, 4L);
    assertThat(result.recordsLeft()).isEqualTo(4);
  }

  @Test
  void stopsWhenTheHandlerSaysSo() {
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, 3L));
    consumer.schedulePollTask(
        () -> {
          consumer.addRecord(record(0, "a"));
          consumer.addRecord(record(1, "b"));
          consumer.addRecord(record(2, "c"));
        });

    TopicReader.Result result =
        reader.readToEnd(List.of(partition), Duration.ofSeconds(5), record -> false);

    assertThat(result.stopped()).isTrue();
    assertThat(result.isComplete()).isTrue();
    assertThat(result.read()).isEqualTo(1);
  }

  private ConsumerRecord<byte[], byte[]> record(long offset, String value) {
    return new ConsumerRecord<>(
        partition.topic(),
        partition.partition(),
        offset,
        null,
        value.getBytes(StandardCharsets.UTF_8));
  }
}
