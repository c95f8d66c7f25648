package dev.crawler.cli;

import dev.crawler.common.config.Durations;
import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.events.Acknowledgement;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.options.Bounds;
import dev.crawler.schemas.options.RequestOptions;
import dev.crawler.schemas.serde.RecordDecoder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * An operator's hand on a running crawl: {@code crawler pause|resume|block|unblock|delay|cookies}.
 * A command goes to every partition of {@code crawl.control} (every frontier task and every fetcher
 * reads it) and is logged in {@code crawl.log} with who issued it and when; the command then waits
 * until every frontier task and every fetcher of the group acknowledged it in the crawl log, and
 * says how long that took. Once acknowledged, no request to a paused or blocked origin starts.
 */
public final class HoldCommands {

  private HoldCommands() {}

  /** SITE (a registered domain, or a host of it), ORIGIN (scheme://host[:port]), or --all. */
  static final class Target {
    @Parameters(
        index = "0",
        paramLabel = "SITE|ORIGIN",
        description =
            "An origin (https://www.example.org), or a site: a host or registered domain"
                + " (example.org), meaning all its origins.")
    String name;

    @Option(names = "--all", required = true, description = "Every origin.")
    boolean all;

    /** The command's target: an origin, site:DOMAIN, or *. */
    String resolve() {
      if (all) {
        return OperatorHolds.ALL;
      }
      return ControlTopic.targetOf(name);
    }
  }

  /** What the commands share: the cluster, the wait for acknowledgements. */
  abstract static class Base implements Callable<Integer> {

    @Mixin ClusterOptions cluster;

    @Option(
        names = "--fetcher-group",
        defaultValue = "crawler-fetcher",
        description =
            "The fetchers' consumer group, whose members acknowledge (default: ${DEFAULT-VALUE}).")
    String fetcherGroup;

    @Option(
        names = "--timeout",
        defaultValue = "30s",
        description = "How long to wait for the acknowledgements (default: ${DEFAULT-VALUE}).")
    String timeout;

    abstract ControlCommand.Builder command();

    @Override
    public Integer call() throws Exception {
      ControlCommand command =
          command()
              .setCommandId(UUID.randomUUID().toString())
              .setIssuedAt(Instant.now())
              .setIssuedBy(ClusterOptions.operator())
              .build();
      return issue(
          cluster,
          command,
          fetcherGroup,
          Durations.parse(timeout, Optional.of(ChronoUnit.SECONDS)));
    }
  }

  /**
   * Sends the command, logs it, and waits for its acknowledgements; prints what happened.
   *
   * @return 0 once every frontier task and fetcher acknowledged, 1 when some did not in time
   */
  static int issue(
      ClusterOptions cluster, ControlCommand command, String fetcherGroup, Duration timeout)
      throws Exception {
    Topics topics = cluster.topics();
    Map<String, Object> kafka = cluster.kafkaProperties();
    return awaitAcknowledged(
        cluster,
        command.getCommandId(),
        ControlTopic.describe(command),
        () -> {
          ControlTopic.broadcast(kafka, topics, command);
          ControlTopic.logIssued(kafka, topics, command);
        },
        Optional.of(fetcherGroup),
        timeout);
  }

  /** What sends a command. */
  @FunctionalInterface
  interface Sending {
    void send() throws Exception;
  }

  /**
   * Sends something every frontier task (and every fetcher of the group, when given) acknowledges
   * in crawl.log naming {@code commandId}, and waits for them; prints what happened.
   *
   * @return 0 once all acknowledged, 1 when some did not in time
   */
  static int awaitAcknowledged(
      ClusterOptions cluster,
      String commandId,
      String what,
      Sending sending,
      Optional<String> fetcherGroup,
      Duration timeout)
      throws Exception {
    Topics topics = cluster.topics();
    long started = System.nanoTime();
    Map<String, Object> kafka = cluster.kafkaProperties();
    try (KafkaConsumer<byte[], byte[]> log =
        ClientSettings.rawConsumer(ClusterOptions.readerProperties(kafka))) {
      List<TopicPartition> partitions =
          log.partitionsFor(topics.log().name()).stream()
              .map(info -> new TopicPartition(info.topic(), info.partition()))
              .toList();
      log.assign(partitions);
      log.seekToEnd(partitions);
      partitions.forEach(log::position); // fixes the start before the command goes
      int frontierTasks = log.partitionsFor(topics.control().name()).size();
      sending.send();
      int fetchers = fetcherGroup.map(group -> fetcherMembers(kafka, group)).orElse(0);
      System.out.printf(
          Locale.ROOT,
          "%s: sent (command %s); waiting for %d frontier task(s) and %d fetcher(s)%n",
          what,
          commandId,
          frontierTasks,
          fetchers);
      Set<String> frontiers = new TreeSet<>();
      Set<String> fetchersAcknowledged = new TreeSet<>();
      RecordDecoder<String, CrawlLogEntry> decoder = new RecordDecoder<>(topics.log());
      long deadline = started + timeout.toNanos();
      while (frontiers.size() < frontierTasks || fetchersAcknowledged.size() < fetchers) {
        if (System.nanoTime() > deadline) {
          System.out.printf(
              Locale.ROOT,
              "%s: acknowledged by %d of %d frontier task(s) and %d of %d fetcher(s) in %s;"
                  + " the others have not said so yet (are they running?)%n",
              what,
              frontiers.size(),
              frontierTasks,
              fetchersAcknowledged.size(),
              fetchers,
              timeout);
          return 1;
        }
        for (ConsumerRecord<byte[], byte[]> raw : log.poll(Duration.ofMillis(100))) {
          CrawlLogEntry entry;
          try {
            entry = decoder.decode(raw).value();
          } catch (RuntimeException e) {
            continue;
          }
          Acknowledgement acknowledgement = entry == null ? null : entry.getAcknowledgement();
          if (acknowledgement != null && acknowledgement.getCommandId().equals(commandId)) {
            switch (acknowledgement.getRole()) {
              case FRONTIER_TASK -> frontiers.add(acknowledgement.getMember());
              case FETCHER -> fetchersAcknowledged.add(acknowledgement.getMember());
              default -> {}
            }
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%s: acknowledged by %d frontier task(s) and %d fetcher(s) in %d ms%n",
          what,
          frontiers.size(),
          fetchersAcknowledged.size(),
          Duration.ofNanos(System.nanoTime() - started).toMillis());
      return 0;
    }
  }

  private static int fetcherMembers(Map<String, Object> kafka, String group) {
    try (Admin admin = Admin.create(kafka)) {
      return admin
          .describeConsumerGroups(List.of(group))
          .all()
          .get(30, TimeUnit.SECONDS)
          .get(group)
          .members()
          .size();
    } catch (Exception e) {
      return 0; // no fetcher group (yet): nothing to wait for on that side
    }
  }

  /** A command about a target: what is sent is its type, about the target named. */
  abstract static class OnTarget extends Base {
    @ArgGroup(multiplicity = "1")
    Target target;

    abstract ControlCommandType type();

    @Override
    ControlCommand.Builder command() {
      return ControlCommand.newBuilder().setCommand(type()).setTarget(target.resolve());
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description =
          "Pause a site, an origin or the whole crawl: no request until resumed; URLs stay queued.")
  public static final class Pause extends OnTarget {
    @Override
    ControlCommandType type() {
      return ControlCommandType.PAUSE;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a paused site, origin or crawl.")
  public static final class Resume extends OnTarget {
    @Override
    ControlCommandType type() {
      return ControlCommandType.RESUME;
    }
  }

  @Command(
      name = "block",
      mixinStandardHelpOptions = true,
      description =
          "Block a site or an origin: no request until unblocked; its queued URLs are kept, or with"
              + " --delete-documents dropped and its published documents deleted.")
  public static final class Block extends OnTarget {
    @Option(
        names = "--delete-documents",
        description = "Decide its known URLs FILTERED: queued ones dropped, documents deleted.")
    boolean deleteDocuments;

    @Override
    ControlCommandType type() {
      return ControlCommandType.BLOCK;
    }

    @Override
    ControlCommand.Builder command() {
      return super.command().setDeleteDocuments(deleteDocuments);
    }
  }

  @Command(
      name = "unblock",
      mixinStandardHelpOptions = true,
      description =
          "Unblock a site or an origin; URLs dropped by a block come back when linked again.")
  public static final class Unblock extends OnTarget {
    @Override
    ControlCommandType type() {
      return ControlCommandType.UNBLOCK;
    }
  }

  @Command(
      name = "delay",
      mixinStandardHelpOptions = true,
      description =
          "Set the delay between requests to an origin (or a site's origins) until the crawl"
              + " configuration changes; --reset goes back to the configuration's.")
  public static final class Delay extends Base {
    @Parameters(index = "0", paramLabel = "ORIGIN|SITE")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "MS", description = "Milliseconds.")
    Long millis;

    @Option(names = "--reset", description = "Back to the configuration's delay.")
    boolean reset;

    @Override
    ControlCommand.Builder command() {
      if (reset == (millis != null)) {
        throw new ParameterException(new CommandLine(this), "give MS or --reset");
      }
      Bounds bounds = RequestOptions.DELAY_MS.bounds().orElseThrow();
      if (millis != null && !bounds.contains(millis)) {
        throw new ParameterException(new CommandLine(this), "MS is " + bounds);
      }
      return ControlCommand.newBuilder()
          .setCommand(ControlCommandType.SET_DELAY)
          .setTarget(ControlTopic.targetOf(name))
          .setDelayMillis(reset ? -1 : millis);
    }
  }

  @Command(
      name = "cookies",
      mixinStandardHelpOptions = true,
      description = "Operate on the fetchers' cookie jars and login sessions.",
      subcommands = Cookies.Clear.class)
  public static final class Cookies {

    @Command(
        name = "clear",
        mixinStandardHelpOptions = true,
        description =
            "Drop the cookie jars and login sessions of a site, an origin or all: the next request logs in again.")
    static final class Clear extends OnTarget {
      @Override
      ControlCommandType type() {
        return ControlCommandType.CLEAR_COOKIES;
      }
    }
  }
}
