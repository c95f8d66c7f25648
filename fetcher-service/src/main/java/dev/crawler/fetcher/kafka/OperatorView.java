package dev.crawler.fetcher.kafka;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlConfiguration;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What operators hold, as this fetcher reads it from {@code crawl.control}: every partition,
 * assigned by hand (no group), from the beginning when the fetcher starts, so a fetcher started
 * after a pause holds the same as the others; then a poll without waiting on every turn of the
 * loop, so a command acts within a turn. The frontier holds the same in its state; the fetcher's
 * view stops what it was already given. Owned by the fetch loop's thread.
 */
final class OperatorView {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorView.class);

  /** How long the start waits to read what was issued before it. */
  static final Duration CATCH_UP = Duration.ofSeconds(30);

  /**
   * How long after a configuration is applied the frontier's tasks have surely switched to it: a
   * request released later under another version was released by a task that did not take it (a
   * record it could not load), and goes ahead rather than back.
   */
  static final Duration SWITCH_BOUND = Duration.ofSeconds(30);

  private final @Nullable Consumer<byte[], byte[]> consumer;
  private final TopicSpec<String, ControlCommand> topic;
  private final TopicSpec<String, CrawlConfiguration> configTopic;
  private final RecordDecoder<String, ControlCommand> decoder;
  private final RecordDecoder<String, CrawlConfiguration> configDecoder;
  private final OperatorHolds holds = new OperatorHolds();
  private @Nullable CrawlConfiguration config;

  /**
   * @param consumer reads the control and configuration topics; null for a fetcher that takes no
   *     commands (tests)
   */
  OperatorView(
      @Nullable Consumer<byte[], byte[]> consumer,
      TopicSpec<String, ControlCommand> topic,
      TopicSpec<String, CrawlConfiguration> configTopic) {
    this.consumer = consumer;
    this.topic = topic;
    this.configTopic = configTopic;
    this.decoder = new RecordDecoder<>(topic);
    this.configDecoder = new RecordDecoder<>(configTopic);
  }

  /** What operators hold. */
  OperatorHolds holds() {
    return holds;
  }

  /**
   * Whether a request was released under a configuration an operator has since replaced: it carries
   * another version than the one last applied, and was released before the frontier's tasks surely
   * switched ({@link #SWITCH_BOUND}). Such a request goes back to the frontier, which decides it
   * again under the rules in force, instead of being fetched.
   *
   * @param version the configuration version the request carries (empty when none)
   */
  boolean isOfReplacedConfiguration(String version, Instant releasedAt) {
    CrawlConfiguration applied = config;
    return applied != null
        && !version.isEmpty()
        && !version.equals(applied.getVersion())
        && releasedAt.isBefore(applied.getAppliedAt().plus(SWITCH_BOUND));
  }

  /** The version of the configuration last applied, when one was. */
  Optional<String> appliedVersion() {
    CrawlConfiguration applied = config;
    return applied == null ? Optional.empty() : Optional.of(applied.getVersion());
  }

  /** Reads every command issued so far (without acknowledging them: they were, when issued). */
  void start() {
    if (consumer == null) {
      return;
    }
    TopicReader reader = new TopicReader(consumer, "the operators' commands");
    List<TopicPartition> partitions = new ArrayList<>(reader.partitionsOf(topic.name(), CATCH_UP));
    partitions.addAll(reader.partitionsOf(configTopic.name(), CATCH_UP));
    TopicReader.Result read =
        reader.readToEnd(
            partitions,
            CATCH_UP,
            raw -> {
              if (raw.topic().equals(configTopic.name())) {
                takeConfig(raw);
              } else {
                decode(raw).ifPresent(this::apply);
              }
              return true;
            });
    if (!holds.isEmpty()) {
      LOG.info("operators hold {} (from {} commands)", holds.inForce(), read.read());
    }
  }

  /** The commands issued since the last call, each applied to the holds. */
  List<ControlCommand> poll() {
    if (consumer == null) {
      return List.of();
    }
    List<ControlCommand> commands = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> raw : consumer.poll(Duration.ZERO)) {
      if (raw.topic().equals(configTopic.name())) {
        takeConfig(raw);
        continue;
      }
      decode(raw)
          .ifPresent(
              command -> {
                apply(command);
                commands.add(command);
              });
    }
    return commands;
  }

  void close() {
    if (consumer != null) {
      // no group, no offsets: not the half second the broker holds the session's last fetch
      consumer.close(CloseOptions.timeout(Duration.ZERO));
    }
  }

  private void apply(ControlCommand command) {
    OperatorHolds.Hold.of(command).ifPresent(holds::apply);
  }

  private void takeConfig(ConsumerRecord<byte[], byte[]> raw) {
    try {
      CrawlConfiguration applied = configDecoder.decode(raw).value();
      if (applied != null) {
        if (config == null || !config.getVersion().equals(applied.getVersion())) {
          LOG.info(
              "crawl configuration {} applied by {} at {}: requests released under another are"
                  + " given back to be decided again",
              applied.getVersion(),
              applied.getAppliedBy(),
              applied.getAppliedAt());
        }
        config = applied;
      }
    } catch (UndecodableRecordException e) {
      LOG.warn("ignoring an undecodable configuration record: {}", e.getMessage());
    }
  }

  private Optional<ControlCommand> decode(ConsumerRecord<byte[], byte[]> raw) {
    try {
      return Optional.ofNullable(decoder.decode(raw).value());
    } catch (UndecodableRecordException e) {
      LOG.warn("ignoring an undecodable operator command: {}", e.getMessage());
      return Optional.empty();
    }
  }
}
