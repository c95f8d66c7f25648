package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class FrontierConfigTest {

  @Test
  void theFrontierDoesNotIdleForEmptyInputsUnlessAKafkaSettingSaysSo() {
    assertThat(new FrontierConfig(Map.of()).streamsProperties())
        .containsEntry(
            StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    assertThat(new FrontierConfig(Map.of("kafka.max.task.idle.ms", "0")).streamsProperties())
        .containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0");
  }
}
