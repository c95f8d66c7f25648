package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class CrawlSettingsTest {

  private static final Path DATA = Path.of("crawl-data");

  @Test
  void theEmbeddedBrokersProducersCompressNothing() {
    CrawlSettings settings =
        CrawlSettings.load(Optional.empty(), Map.of(), Map.of(), DATA)
            .withDefault("kafka.compression.type", CrawlSettings.EMBEDDED_COMPRESSION);

    assertThat(settings.fetcher("127.0.0.1:9092", "http://127.0.0.1:8081").kafkaProperties())
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    assertThat(settings.parser("127.0.0.1:9092", "http://127.0.0.1:8081").streamsProperties())
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none")
        .doesNotContainKey(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG));
  }

  @Test
  void aGivenSettingWinsOverTheDefault() {
    CrawlSettings settings =
        CrawlSettings.load(
                Optional.empty(), Map.of("CRAWLER_KAFKA_COMPRESSION_TYPE", "zstd"), Map.of(), DATA)
            .withDefault("kafka.compression.type", CrawlSettings.EMBEDDED_COMPRESSION);

    assertThat(settings.committer("127.0.0.1:9092", "http://127.0.0.1:8081").streamsProperties())
        .containsEntry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
  }

  @Test
  void againstAClusterTheServicesCompressWithLz4() {
    CrawlSettings settings = CrawlSettings.load(Optional.empty(), Map.of(), Map.of(), DATA);

    assertThat(settings.frontier("kafka:9092", "http://registry:8081").streamsProperties())
        .containsEntry(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
  }
}
