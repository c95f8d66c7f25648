package dev.crawler.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.parser.domain.ParserSettings;
import java.util.Map;
import java.util.Set;
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
  void readsItsOwnSettings() {
    ParserConfig config =
        new ParserConfig(Map.of("parser.max.text.chars", "5000", "parser.recent.links", "0", "parser.imported.content.types", "text/html, Text/Plain"));

    assertThat(config.settings()).isEqualTo(new ParserSettings(Set.of("text/html", "text/plain"), 5000, 0));
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
    assertThatThrownBy(() -> new ParserConfig(Map.of(key, value))).isInstanceOf(ConfigException.class).hasMessageContaining(key);
  }
}
