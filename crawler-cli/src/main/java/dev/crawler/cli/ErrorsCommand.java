package dev.crawler.cli;

import dev.crawler.common.control.ControlTopic;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.schemas.Topics;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code crawler errors clear}: lets every URL in the error state (blacklisted after its fetch
 * failed) be queued again when it is next discovered ("Clear Error Cache"). The command goes to
 * every partition of {@code crawl.control}, so every frontier task receives it.
 */
@Command(
    name = "errors",
    mixinStandardHelpOptions = true,
    description = "Operate on URLs in the error state.",
    subcommands = ErrorsCommand.Clear.class)
public final class ErrorsCommand {

  /** {@code crawler errors clear}. */
  @Command(
      name = "clear",
      mixinStandardHelpOptions = true,
      description = "Clear the errors: blacklisted URLs are queued again when next discovered.")
  static final class Clear implements Callable<Integer> {

    @Mixin ClusterOptions cluster;

    @Override
    public Integer call() throws Exception {
      Topics topics = cluster.topics();
      ControlCommand command =
          ControlCommand.newBuilder()
              .setCommand(ControlCommandType.CLEAR_ERRORS)
              .setIssuedAt(Instant.now())
              .setIssuedBy(ClusterOptions.operator())
              .build();
      int partitions = ControlTopic.broadcast(cluster.kafkaProperties(), topics, command);
      System.out.println(
          "errors cleared on " + partitions + " partition(s) of " + topics.control().name());
      return 0;
    }
  }
}
