package dev.crawler.cli;

import dev.crawler.common.config.Durations;
import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.CrawlConfiguration;
import dev.crawler.events.Outcome;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crawler config apply FILE | show}: changes a running crawl's configuration without a
 * restart. {@code apply} checks the file as the frontier does ({@code file:line: key: what}), then
 * publishes it on the compacted {@code crawl.config}; every frontier instance switches to it within
 * seconds, each task acknowledging it in {@code crawl.log}, and the command waits for them. {@code
 * show} prints the configuration in force, its version, who applied it and when.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = "Change or show a running crawl's configuration.",
    subcommands = {ConfigCommand.Apply.class, ConfigCommand.Show.class})
public final class ConfigCommand {

  /** The key of the one record of crawl.config. */
  public static final String KEY = "crawl.yaml";

  /** {@code crawler config apply FILE}. */
  @Command(
      name = "apply",
      mixinStandardHelpOptions = true,
      description =
          "Check a crawl.yaml and put it in force on every frontier instance of a running crawl.")
  static final class Apply implements Callable<Integer> {

    @Mixin ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "FILE", description = "The crawl configuration.")
    Path file;

    @Option(
        names = "--timeout",
        defaultValue = "30s",
        description =
            "How long to wait for the frontier's acknowledgements (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
      CrawlConfig config;
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
        config = CrawlConfigLoader.parse(text, file.toString());
      } catch (IOException e) {
        System.err.println("crawler: " + file + ": cannot be read: " + e.getMessage());
        return CrawlerCli.USAGE_ERROR;
      } catch (CrawlConfigException e) {
        System.err.println("crawler: " + e.getMessage());
        return CrawlerCli.USAGE_ERROR;
      }
      String by = ClusterOptions.operator();
      Topics topics = cluster.topics();
      Optional<CrawlConfiguration> before = inForce(cluster.kafkaProperties(), topics);
      if (before.isPresent() && before.get().getVersion().equals(config.version())) {
        System.out.println(
            "configuration " + config.version() + " is in force already: nothing to apply");
        return 0;
      }
      return HoldCommands.awaitAcknowledged(
          cluster,
          ControlTopic.configCommandId(config.version()),
          "configuration " + config.version() + " (" + file + ")",
          () ->
              logApplied(
                  cluster.kafkaProperties(),
                  topics,
                  apply(cluster.kafkaProperties(), topics, text, config, file.toString(), by)),
          Optional.empty(),
          Durations.parse(timeout, Optional.of(ChronoUnit.SECONDS)));
    }
  }

  /** {@code crawler config show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print the configuration in force: its version, who applied it, its text.")
  static final class Show implements Callable<Integer> {

    @Mixin ClusterOptions cluster;

    @Override
    public Integer call() throws Exception {
      Optional<CrawlConfiguration> applied = inForce(cluster.kafkaProperties(), cluster.topics());
      if (applied.isEmpty()) {
        System.out.println(
            "no configuration was applied: every frontier decides with its own file"
                + " (frontier.crawl.config)");
        return 0;
      }
      CrawlConfiguration config = applied.get();
      System.out.printf(
          Locale.ROOT,
          "# configuration %s, from %s, applied by %s at %s%n%s",
          config.getVersion(),
          config.getFile(),
          config.getAppliedBy(),
          config.getAppliedAt(),
          config.getText());
      if (!config.getText().endsWith("\n")) {
        System.out.println();
      }
      return 0;
    }
  }

  /** The configuration in force: the latest record of crawl.config, if any. */
  public static Optional<CrawlConfiguration> inForce(Map<String, Object> kafka, Topics topics)
      throws IOException {
    AtomicReference<CrawlConfiguration> latest = new AtomicReference<>();
    TopicReader.read(
        ClusterOptions.readerProperties(kafka),
        topics.config(),
        ClusterOptions.READ_BOUND,
        record -> {
          if (KEY.equals(record.key())) {
            latest.set(record.value());
          }
          return true;
        },
        problem -> System.err.println("crawler: skipping a record: " + problem));
    return Optional.ofNullable(latest.get());
  }

  /**
   * Publishes a checked configuration as the one in force; returns once crawl.config has it.
   *
   * @return the record published
   */
  public static CrawlConfiguration apply(
      Map<String, Object> kafka,
      Topics topics,
      String text,
      CrawlConfig config,
      String file,
      String by)
      throws InterruptedException, ExecutionException {
    Map<String, Object> properties = ClientSettings.of(kafka).commandProducer();
    CrawlConfiguration record =
        CrawlConfiguration.newBuilder()
            .setText(text)
            .setVersion(config.version())
            .setFile(file)
            .setAppliedAt(Instant.now())
            .setAppliedBy(by)
            .build();
    try (KafkaProducer<String, CrawlConfiguration> producer =
        new KafkaProducer<>(
            properties,
            topics.config().keySerde().serializer(),
            topics.config().valueSerde().serializer())) {
      producer.send(new ProducerRecord<>(topics.config().name(), KEY, record)).get();
    }
    return record;
  }

  /** Writes to crawl.log who applied a configuration ({@link #apply}), and when. */
  public static void logApplied(
      Map<String, Object> kafka, Topics topics, CrawlConfiguration applied)
      throws InterruptedException, ExecutionException {
    ControlTopic.log(
        kafka,
        topics,
        Decision.of(
                "config",
                Outcome.OPERATOR,
                "configuration "
                    + applied.getVersion()
                    + " ("
                    + applied.getFile()
                    + ") applied by "
                    + applied.getAppliedBy()
                    + " at "
                    + applied.getAppliedAt())
            .withRule("operator config apply"),
        applied.getAppliedAt());
  }
}
