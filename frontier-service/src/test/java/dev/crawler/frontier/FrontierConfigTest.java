package dev.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.schemas.options.RequestOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrontierConfigTest {

  @TempDir Path dir;

  /**
   * {@code crawler crawl --config} lets the frontier start before its file is published when none
   * was applied before: the frontier decides under the file's version, its own settings on top, so
   * the published copy changes nothing when the frontier reads it.
   */
  @Test
  void aFrontierStartedFromItsFileTakesThatFileAppliedLaterAsNothingNew() throws Exception {
    String text = "global:\n  max-depth: 5\n";
    Path file = Files.writeString(dir.resolve("crawl.yaml"), text);
    FrontierConfig config =
        new FrontierConfig(
            Map.of(
                FrontierConfig.CRAWL_CONFIG_CONFIG,
                file.toString(),
                FrontierConfig.DELAY_MS_CONFIG,
                "0"));
    CrawlConfig published = CrawlConfigLoader.parse(text, file.toString());

    assertThat(config.fileVersion()).isEqualTo(published.version());
    assertThat(config.settings().crawl().version())
        .as("the service's settings on top")
        .isNotEqualTo(published.version());

    ActiveConfig active = new ActiveConfig(config.settings().crawl(), config.fileVersion());
    CrawlConfig started = active.current();
    boolean changed =
        active.apply(config.withSettings(published), "crawler crawl --config", published.version());

    assertThat(changed).isFalse();
    assertThat(active.current()).isSameAs(started);
    assertThat(active.appliedVersion()).isEqualTo(published.version());
    assertThat(active.appliedBy()).isEqualTo("the service's settings");
  }

  @Test
  void theFrontierDoesNotIdleForEmptyInputsUnlessAKafkaSettingSaysSo() {
    assertThat(new FrontierConfig(Map.of()).streamsProperties())
        .containsEntry(
            StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    assertThat(new FrontierConfig(Map.of("kafka.max.task.idle.ms", "0")).streamsProperties())
        .containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "0");
  }

  @Test
  void aStreamThreadPollsBrieflyUnlessAKafkaSettingSaysOtherwise() {
    assertThat(new FrontierConfig(Map.of()).streamsProperties())
        .containsEntry(StreamsConfig.POLL_MS_CONFIG, 10L);
    assertThat(new FrontierConfig(Map.of("kafka.poll.ms", "100")).streamsProperties())
        .containsEntry(StreamsConfig.POLL_MS_CONFIG, "100");
  }

  @Test
  void theGroupLeaderLooksForItsInternalTopicsAgainSoonWhileOtherClientsKeepKafkasBackoff() {
    StreamsConfig streams = new StreamsConfig(new FrontierConfig(Map.of()).streamsProperties());
    // the group's leader makes the internal topics ready with its main consumer's settings
    Map<String, Object> leader = streams.getMainConsumerConfigs("group", "client", 0);
    assertThat(new StreamsConfig(leader).getLong(StreamsConfig.RETRY_BACKOFF_MS_CONFIG))
        .isEqualTo(10L);
    // the others: Kafka's default
    assertThat(
            new ConsumerConfig(
                    ConsumerConfig.appendDeserializerToConfig(
                        streams.getRestoreConsumerConfigs("client"),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer()))
                .getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG))
        .isEqualTo(100L);
    assertThat(
            new ProducerConfig(withSerializers(streams.getProducerConfigs("client")))
                .getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG))
        .isEqualTo(100L);
    assertThat(
            new AdminClientConfig(streams.getAdminConfigs("client"))
                .getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG))
        .isEqualTo(100L);

    StreamsConfig set =
        new StreamsConfig(
            new FrontierConfig(Map.of("kafka.retry.backoff.ms", "250")).streamsProperties());
    assertThat(
            new StreamsConfig(set.getMainConsumerConfigs("group", "client", 0))
                .getLong(StreamsConfig.RETRY_BACKOFF_MS_CONFIG))
        .isEqualTo(250L);
  }

  @Test
  void anEmptyChangelogOrGlobalTopicIsWaitedOnBrieflyUnlessAKafkaSettingSaysOtherwise() {
    String restoreWait =
        StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);
    String globalWait = StreamsConfig.globalConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);

    assertThat(new FrontierConfig(Map.of()).streamsProperties())
        .containsEntry(restoreWait, 50)
        .containsEntry(globalWait, 100);
    assertThat(
            new FrontierConfig(Map.of("kafka.global.consumer.fetch.max.wait.ms", "400"))
                .streamsProperties())
        .containsEntry(globalWait, "400");
    assertThat(
            new FrontierConfig(Map.of("kafka.restore.consumer.fetch.max.wait.ms", "200"))
                .streamsProperties())
        .containsEntry(restoreWait, "200");
    assertThat(new FrontierConfig(Map.of("kafka.fetch.max.wait.ms", "300")).streamsProperties())
        .doesNotContainKeys(restoreWait, globalWait)
        .containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "300");
    assertThat(
            new FrontierConfig(Map.of("kafka.consumer.fetch.max.wait.ms", "300"))
                .streamsProperties())
        .doesNotContainKeys(restoreWait, globalWait);
  }

  @Test
  void anOptionTakesTheSameValuesInTheConfigurationAsASettingAndOnTheWire() {
    String max = Long.toString(RequestOptions.MAX_DELAY_MS);
    String past = Long.toString(RequestOptions.MAX_DELAY_MS + 1);

    assertThat(CrawlConfigLoader.parse("global: {delay-ms: " + max + "}", "crawl.yaml"))
        .isNotNull();
    assertThat(new FrontierConfig(Map.of(FrontierConfig.DELAY_MS_CONFIG, max))).isNotNull();
    assertThatThrownBy(() -> CrawlConfigLoader.parse("global: {delay-ms: " + past + "}", "c.yaml"))
        .isInstanceOf(CrawlConfigException.class)
        .hasMessageContaining("is more than " + max);
    assertThatThrownBy(() -> new FrontierConfig(Map.of(FrontierConfig.DELAY_MS_CONFIG, past)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(FrontierConfig.DELAY_MS_CONFIG);
    // a foreign request's larger delay is read as the most there is, never as a shorter default
    assertThat(RequestOptions.DELAY_MS.readFrom(Map.of("delay-ms", past)))
        .isEqualTo(RequestOptions.MAX_DELAY_MS);
    assertThat(RequestOptions.DELAY_MS.readFrom(Map.of("delay-ms", "-1")))
        .isEqualTo(RequestOptions.DELAY_MS.defaultValue());

    assertThat(new FrontierConfig(Map.of(FrontierConfig.MAX_DEPTH_CONFIG, "-1"))).isNotNull();
    assertThatThrownBy(() -> new FrontierConfig(Map.of(FrontierConfig.MAX_DEPTH_CONFIG, "-2")))
        .isInstanceOf(ConfigException.class);
    assertThat(CrawlOption.DELAY_MS.bounds()).isEqualTo(RequestOptions.DELAY_MS.bounds());
  }

  private static Map<String, Object> withSerializers(Map<String, Object> producer) {
    Map<String, Object> configs = new HashMap<>(producer);
    configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return configs;
  }
}
