package dev.crawler.common.control;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.common.url.RegisteredDomain;
import dev.crawler.events.Acknowledgement;
import dev.crawler.events.AcknowledgerRole;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.Outcome;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;

/**
 * Operators' commands: one copy to every partition of crawl.control, so every frontier task (and
 * every fetcher, which reads all of them) receives it; logged in crawl.log as issued, by whom and
 * when. Used by the {@code crawler} commands and the management endpoint alike.
 */
public final class ControlTopic {

  /** How long reading what operators hold may take at most. */
  public static final Duration READ_BOUND = Duration.ofSeconds(30);

  private ControlTopic() {}

  /**
   * Sends the command to every partition and waits until all are acknowledged.
   *
   * @param kafka the producer's connection settings (bootstrap servers and any client settings)
   * @return the partitions it went to
   */
  public static int broadcast(Map<String, Object> kafka, Topics topics, ControlCommand command)
      throws InterruptedException, ExecutionException {
    try (KafkaProducer<String, ControlCommand> producer =
        new KafkaProducer<>(
            ClientSettings.of(kafka).commandProducer(),
            topics.control().keySerde().serializer(),
            topics.control().valueSerde().serializer())) {
      int partitions = 0;
      for (PartitionInfo partition : producer.partitionsFor(topics.control().name())) {
        producer
            .send(new ProducerRecord<>(topics.control().name(), partition.partition(), "", command))
            .get();
        partitions++;
      }
      return partitions;
    }
  }

  /** Logs in crawl.log that the command was issued, by whom and when (keyed by its target). */
  public static void logIssued(Map<String, Object> kafka, Topics topics, ControlCommand command)
      throws InterruptedException, ExecutionException {
    String target = command.getTarget().isEmpty() ? OperatorHolds.ALL : command.getTarget();
    log(
        kafka,
        topics,
        Decision.of(
                target,
                Outcome.OPERATOR,
                describe(command)
                    + " issued by "
                    + command.getIssuedBy()
                    + " at "
                    + command.getIssuedAt()
                    + " (command "
                    + command.getCommandId()
                    + ")")
            .withRule("operator " + command.getCommand().name().toLowerCase(Locale.ROOT)),
        command.getIssuedAt());
  }

  /** Writes an operator's line to crawl.log, keyed by what it is about, and waits for it. */
  public static void log(Map<String, Object> kafka, Topics topics, Decision decision, Instant time)
      throws InterruptedException, ExecutionException {
    CrawlLogEntry entry = new CrawlLog("operator", new SimpleMeterRegistry()).entry(decision, time);
    try (KafkaProducer<String, CrawlLogEntry> producer =
        new KafkaProducer<>(
            ClientSettings.of(kafka).commandProducer(),
            topics.log().keySerde().serializer(),
            topics.log().valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(topics.log().name(), decision.url(), entry)).get();
    }
  }

  /** A command in words, with its target. */
  public static String describe(ControlCommand command) {
    String target = command.getTarget().isEmpty() ? "everything" : command.getTarget();
    if (target.equals(OperatorHolds.ALL)) {
      target = "every origin";
    }
    return switch (command.getCommand()) {
      case PAUSE -> "pause " + target;
      case RESUME -> "resume " + target;
      case BLOCK ->
          "block " + target + (command.getDeleteDocuments() ? " (documents deleted)" : "");
      case UNBLOCK -> "unblock " + target;
      case SET_DELAY ->
          command.getDelayMillis() < 0
              ? "delay of " + target + " back to the configuration's"
              : "delay of " + target + " " + command.getDelayMillis() + " ms";
      case CLEAR_COOKIES -> "clear the cookies and sessions of " + target;
      default -> command.getCommand().name().toLowerCase(Locale.ROOT) + " " + target;
    };
  }

  /**
   * The target an operator named: an origin ({@code https://www.example.org}), a site ({@code
   * example.org} or a host of it, meaning all its origins: {@code site:example.org}), or {@code *}.
   *
   * @throws IllegalArgumentException saying what is wrong with the name
   */
  public static String targetOf(String name) {
    String text = name.strip();
    if (text.equals(OperatorHolds.ALL)) {
      return OperatorHolds.ALL;
    }
    if (text.contains("://")) {
      try {
        return Origin.keyOf(text);
      } catch (InvalidUrlException e) {
        throw new IllegalArgumentException("'" + name + "' is not an origin: " + e.getMessage());
      }
    }
    String host =
        text.startsWith(OperatorHolds.SITE_PREFIX)
            ? text.substring(OperatorHolds.SITE_PREFIX.length())
            : text;
    if (!host.matches("[A-Za-z0-9.\\-]+")) {
      throw new IllegalArgumentException(
          "'" + name + "' is neither an origin (https://host) nor a site (example.org)");
    }
    return OperatorHolds.SITE_PREFIX + RegisteredDomain.of(host.toLowerCase(Locale.ROOT));
  }

  /**
   * What operators hold now: every command on the topic, read from its start to its end within
   * {@link #READ_BOUND} (a read that gives up is logged, and what was read holds).
   */
  public static OperatorHolds holds(Map<String, Object> kafka, Topics topics) {
    OperatorHolds holds = new OperatorHolds();
    TopicReader.read(
        ClientSettings.of(kafka).reader("operator-holds-reader"),
        topics.control(),
        READ_BOUND,
        record -> {
          if (record.value() != null) {
            OperatorHolds.Hold.of(record.value()).ifPresent(holds::apply);
          }
          return true;
        },
        problem -> {}); // a record no reader can use holds nothing
    return holds;
  }

  /**
   * The crawl-log line by which a service says it applied a command: in words, what the command
   * was, who issued it and when, and what it did; as fields ({@link Acknowledgement}), which
   * command and which member applied it, which {@code crawler} counts.
   */
  public static Decision acknowledgement(
      ControlCommand command, String what, AcknowledgerRole role, String member) {
    String target = command.getTarget().isEmpty() ? OperatorHolds.ALL : command.getTarget();
    String name = command.getCommand().name().toLowerCase(Locale.ROOT);
    return Decision.of(
            target,
            Outcome.OPERATOR,
            describe(command)
                + " by "
                + command.getIssuedBy()
                + " at "
                + command.getIssuedAt()
                + ": "
                + what)
        .withRule("operator " + name)
        .withAcknowledgement(new Acknowledgement(command.getCommandId(), role, member));
  }

  /** The id under which the members acknowledge a configuration of this version. */
  public static String configCommandId(String version) {
    return "config-" + version;
  }
}
