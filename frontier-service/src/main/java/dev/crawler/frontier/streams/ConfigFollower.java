package dev.crawler.frontier.streams;

import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.ServiceThread;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.CrawlConfiguration;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows {@code crawl.config}, where {@code crawler config apply} publishes the crawl
 * configuration in force: read to its end before the frontier starts (a configuration applied
 * before wins over the service's file, so every instance, a restarted one too, decides with the
 * same), within {@link #READ_BOUND} (a read that gives up is logged, and the frontier starts with
 * what it read), then followed on a thread of its own, joined on {@link #close()}, whose end before
 * then is a liveness problem ({@link #livenessProblem()}); each new one goes into the {@link
 * ActiveConfig} the tasks read. A record that does not load (a hand-made one) is logged and
 * ignored.
 */
public final class ConfigFollower implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ConfigFollower.class);

  /** How long reading the configurations applied before the start may take at most. */
  public static final Duration READ_BOUND = Duration.ofSeconds(30);

  private final Consumer<byte[], byte[]> consumer;
  private final RecordDecoder<String, CrawlConfiguration> decoder;
  private final ActiveConfig active;
  private final UnaryOperator<CrawlConfig> withSettings;
  private volatile boolean running = true;
  private @Nullable ServiceThread thread;

  private ConfigFollower(
      Consumer<byte[], byte[]> consumer,
      TopicSpec<String, CrawlConfiguration> topic,
      ActiveConfig active,
      UnaryOperator<CrawlConfig> withSettings) {
    this.consumer = consumer;
    this.decoder = new RecordDecoder<>(topic);
    this.active = active;
    this.withSettings = withSettings;
  }

  /**
   * Reads the configurations applied so far, then follows the topic on a thread of its own.
   *
   * @param withSettings puts the service's own settings (max depth, delay) on top of a
   *     configuration, as on the file's
   */
  public static ConfigFollower start(
      ClientSettings clients,
      TopicSpec<String, CrawlConfiguration> topic,
      ActiveConfig active,
      UnaryOperator<CrawlConfig> withSettings) {
    return start(
        ClientSettings.rawConsumer(clients.reader("frontier-config-follower")),
        topic,
        active,
        withSettings);
  }

  /** {@link #start(ClientSettings, TopicSpec, ActiveConfig, UnaryOperator)} with this consumer. */
  static ConfigFollower start(
      Consumer<byte[], byte[]> consumer,
      TopicSpec<String, CrawlConfiguration> topic,
      ActiveConfig active,
      UnaryOperator<CrawlConfig> withSettings) {
    ConfigFollower follower = new ConfigFollower(consumer, topic, active, withSettings);
    try {
      TopicReader reader = new TopicReader(consumer, "the crawl configuration applied");
      reader.readToEnd(
          reader.partitionsOf(topic.name(), READ_BOUND),
          READ_BOUND,
          raw -> {
            follower.take(raw);
            return true;
          });
      follower.thread = ServiceThread.start("frontier-config", follower::follow);
      return follower;
    } catch (RuntimeException e) {
      consumer.close(CloseOptions.timeout(Duration.ZERO));
      throw e;
    }
  }

  private void follow() {
    try {
      while (running) {
        consumer.poll(Duration.ofMillis(500)).forEach(this::take);
      }
    } catch (WakeupException e) {
      if (running) {
        throw e;
      }
    } finally {
      // no group, no offsets: closing does not wait the half second the broker holds the last
      // fetch, the one that ends the fetch session
      consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
  }

  /** Why the configuration is no longer followed, empty while it is. */
  public Optional<String> livenessProblem() {
    ServiceThread following = thread;
    return following == null
        ? Optional.empty()
        : following
            .livenessProblem()
            .map(problem -> "the crawl configuration is no longer followed: " + problem);
  }

  void take(ConsumerRecord<byte[], byte[]> raw) {
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

  /** Stops following and waits for the thread to end. */
  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    ServiceThread following = thread;
    if (following != null) {
      following.join(Duration.ofSeconds(10));
    }
  }
}
