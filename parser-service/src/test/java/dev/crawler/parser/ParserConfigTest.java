package dev.crawler.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.common.streams.BoundedStateMemory;
import dev.crawler.parser.domain.ParserSettings;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParserConfigTest {

  @Test
  void hasTheDefaultSettingsWhenNothingIsConfigured() {
    ParserConfig config = new ParserConfig(Map.of());

    assertThat(config.settings()).isEqualTo(ParserSettings.DEFAULTS);
    assertThat(config.serviceName()).isEqualTo("parser");
    assertThat(config.streamsProperties())
        .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "crawler-parser")
        .containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
  }

  @Test
  void batchesWhatItProducesAndCommitsTwiceASecondByDefault() {
    Properties properties = new ParserConfig(Map.of()).streamsProperties();

    assertThat(properties)
        .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 500L)
        .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 20)
        .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 256 * 1024)
        .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
  }

  @Test
  void boundsTheStateStoresNativeMemory() {
    assertThat(new ParserConfig(Map.of()).streamsProperties())
        .containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedStateMemory.class)
        .containsEntry(BoundedStateMemory.MEMORY_BYTES_CONFIG, 128L * 1024 * 1024);
    assertThat(new ParserConfig(Map.of("state.memory.mb", "512")).streamsProperties())
        .containsEntry(BoundedStateMemory.MEMORY_BYTES_CONFIG, 512L * 1024 * 1024);
  }

  @Test
  void letsAKafkaSettingOverrideTheBatchingDefaults() {
    Properties properties =
        new ParserConfig(
                Map.of(
                    "kafka.linger.ms",
                    "50",
                    "kafka.producer.batch.size",
                    "65536",
                    "commit.interval.ms",
                    "100"))
            .streamsProperties();

    // Kafka Streams prefers producer.linger.ms to linger.ms: a default under the prefix would
    // hide the setting
    assertThat(properties)
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "50")
        .doesNotContainKey(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG))
        .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), "65536")
        .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100L);
  }

  @Test
  void readsItsOwnSettings() {
    ParserConfig config =
        new ParserConfig(
            Map.of(
                "parser.max.text.chars",
                "5000",
                "parser.recent.links",
                "0",
                "parser.imported.content.types",
                "text/html, Text/Plain"));

    assertThat(config.settings())
        .isEqualTo(new ParserSettings(Set.of("text/html", "text/plain"), 5000, 0));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          parser.max.text.chars         | -1
          parser.max.text.chars         | lots
          parser.recent.links           | -5
          parser.imported.content.types | text/html,html
          parser.imported.content.types | 'text/html;charset=utf-8'
          """)
  void refusesABadValueNamingTheSetting(String key, String value) {
    assertThatThrownBy(() -> new ParserConfig(Map.of(key, value)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(key);
  }
}
