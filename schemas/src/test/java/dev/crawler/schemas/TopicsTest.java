package dev.crawler.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import org.junit.jupiter.api.Test;

class TopicsTest {

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());

  @Test
  void namesEveryTopicOfTheContract() {
    assertThat(topics.all())
        .extracting(TopicSpec::name)
        .containsExactly(
            "crawl.discovered",
            "crawl.fetch-requests",
            "crawl.render-requests",
            "crawl.fetch-results",
            "crawl.exchanges",
            "crawl.imports",
            "crawl.parsed",
            "crawl.outcomes",
            "crawl.documents",
            "crawl.log",
            "crawl.dead-letters",
            "crawl.control",
            "crawl.politeness",
            "crawl.render-politeness",
            "crawl.chunks",
            "crawl.checksums",
            "crawl.recrawl-feed",
            "crawl.stats",
            "crawl.config");
  }

  @Test
  void compactsOnlyTheDocumentsChunksPolitenessChecksumRecrawlFeedStatsAndConfigTopics() {
    assertThat(topics.documents().cleanupPolicy()).isEqualTo(CleanupPolicy.COMPACT);
    assertThat(topics.chunks().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.renderPoliteness().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.documents().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.politeness().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.checksums().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.recrawlFeed().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.stats().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.config().topicConfigs()).containsEntry("cleanup.policy", "compact");
    assertThat(topics.all())
        .filteredOn(
            t ->
                t != topics.documents()
                    && t != topics.chunks()
                    && t != topics.politeness()
                    && t != topics.renderPoliteness()
                    && t != topics.checksums()
                    && t != topics.recrawlFeed()
                    && t != topics.stats()
                    && t != topics.config())
        .allMatch(t -> t.cleanupPolicy() == CleanupPolicy.DELETE);
  }

  @Test
  void givesTheRecrawlFeedOnePartitionSoOneTaskSchedulesAllSites() {
    assertThat(topics.recrawlFeed().partitions(12)).isEqualTo(1);
    assertThat(topics.discovered().partitions(12)).isEqualTo(12);
    assertThat(topics.all())
        .filteredOn(t -> t.fixedPartitions() > 0)
        .containsExactly(topics.recrawlFeed(), topics.config());
  }

  @Test
  void boundsTheCrawlLogInTime() {
    assertThat(topics.log().topicConfigs())
        .containsEntry("retention.ms", Long.toString(Topics.LOG_RETENTION.toMillis()));
  }

  @Test
  void coPartitionsTheOriginKeyedTopics() {
    assertThat(topics.all())
        .filteredOn(TopicSpec::coPartitionedByOrigin)
        .extracting(TopicSpec::name)
        .containsExactly(
            "crawl.discovered",
            "crawl.fetch-requests",
            "crawl.render-requests",
            "crawl.fetch-results",
            "crawl.exchanges",
            "crawl.imports",
            "crawl.parsed",
            "crawl.outcomes",
            "crawl.log",
            "crawl.control",
            "crawl.politeness",
            "crawl.render-politeness",
            "crawl.stats");
  }

  @Test
  void appliesAnotherPrefix() {
    Topics prefixed = Topics.create("test-7.", new InMemorySchemaRegistryClient());
    assertThat(prefixed.all()).allMatch(t -> t.name().startsWith("test-7."));
    assertThat(prefixed.fetchRequests().name()).isEqualTo("test-7.fetch-requests");
  }

  @Test
  void rejectsAPrefixKafkaCannotName() {
    assertThatThrownBy(() -> Topics.create("bad prefix/", new InMemorySchemaRegistryClient()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad prefix/");
  }
}
