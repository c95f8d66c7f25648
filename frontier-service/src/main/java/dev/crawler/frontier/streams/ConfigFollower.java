package dev.crawler.frontier.streams;

import dev.crawler.events.CrawlConfiguration;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows {@code crawl.config}, where {@code crawler config apply} publishes the crawl
 * configuration in force: read to its end before the frontier starts (a configuration applied
 * before wins over the service's file, so every instance, a restarted one too, decides with the
 * same), then followed on a thread of its own; each new one goes into the {@link ActiveConfig} the
 * tasks read. A record that does not load (a hand-made one) is logged and ignored.
 */
public final class ConfigFollower implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigFollower.class);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final RecordDecoder<String, CrawlConfiguration> decoder;
  private final ActiveConfig active;
  private final UnaryOperator<CrawlConfig> withSettings;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param withSettings puts the service's own settings (max depth, delay) on top of a
   *     configuration, as on the file's
   */
  public ConfigFollower(
      Map<String, Object> kafka,
      TopicSpec<String, CrawlConfiguration> topic,
      ActiveConfig active,
      UnaryOperator<CrawlConfig> withSettings) {
    Map<String, Object> properties = new HashMap<>(kafka);
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "frontier-config-follower");
    this.consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.decoder = new RecordDecoder<>(topic);
    this.active = active;
    this.withSettings = withSettings;
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
            .map(info -> new TopicPartition(info.topic(), info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))
        && System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(200)).forEach(this::take);
    }
    this.thread = new Thread(this::follow, "frontier-config");
    thread.setDaemon(true);
    thread.start();
  }

  private void follow() {
    try {
      while (running) {
        consumer.poll(Duration.ofMillis(500)).forEach(this::take);
      }
    } catch (WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      LOG.error("stopped following the crawl configuration: {}", e.toString());
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void take(ConsumerRecord<byte[], byte[]> raw) {
    CrawlConfiguration applied;
    try {
      applied = decoder.decode(raw).value();
    } catch (UndecodableRecordException e) {
      LOG.warn("ignoring an undecodable configuration record: {}", e.getMessage());
      return;
    }
    if (applied == null) {
      return;
    }
    CrawlConfig config;
    try {
      config = withSettings.apply(CrawlConfigLoader.parse(applied.getText(), applied.getFile()));
    } catch (CrawlConfigException e) {
      LOG.error(
          "ignoring the configuration applied by {}: {}", applied.getAppliedBy(), e.getMessage());
      return;
    }
    String by = applied.getAppliedBy() + " at " + applied.getAppliedAt();
    if (active.apply(config, by, applied.getVersion())) {
      LOG.info(
          "crawl configuration {} ({}) applied by {} is in force",
          config.version(),
          applied.getFile(),
          by);
    }
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
  }
}
