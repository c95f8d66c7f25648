package dev.crawler.fetcher.kafka;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.ControlCommand;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.serde.RecordDecoder;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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

  private final @Nullable Consumer<byte[], byte[]> consumer;
  private final TopicSpec<String, ControlCommand> topic;
  private final RecordDecoder<String, ControlCommand> decoder;
  private final OperatorHolds holds = new OperatorHolds();

  /**
   * @param consumer reads the control topic; null for a fetcher that takes no commands (tests)
   */
  OperatorView(
      @Nullable Consumer<byte[], byte[]> consumer, TopicSpec<String, ControlCommand> topic) {
    this.consumer = consumer;
    this.topic = topic;
    this.decoder = new RecordDecoder<>(topic);
  }

  /** What operators hold. */
  OperatorHolds holds() {
    return holds;
  }

  /** Reads every command issued so far (without acknowledging them: they were, when issued). */
  void start() {
    if (consumer == null) {
      return;
    }
    TopicReader reader = new TopicReader(consumer, "the operators' commands");
    TopicReader.Result read =
        reader.readToEnd(
            reader.partitionsOf(topic.name(), CATCH_UP),
            CATCH_UP,
            raw -> {
              decode(raw).ifPresent(this::apply);
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
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void apply(ControlCommand command) {
    OperatorHolds.Hold.of(command).ifPresent(holds::apply);
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
