package dev.crawler.cli;

import dev.crawler.cli.crawl.CrawlCommand;
import dev.crawler.cli.status.StatusCommand;
import dev.crawler.common.SuppressForbidden;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code crawler} command: entry point and the list of subcommands. */
@Command(
    name = "crawler",
    mixinStandardHelpOptions = true,
    version = "crawler 0.1.0",
    description = "A Kafka-native web crawler.",
    subcommands = {
      CrawlCommand.class,
      ClusterCommand.class,
      SettingsCommand.class,
      OptionsCommand.class,
      ExplainCommand.class,
      ErrorsCommand.class,
      DocumentsCommand.class,
      ArchiveCommand.class,
      SeedCommand.class,
      StatusCommand.class,
      HoldCommands.Pause.class,
      HoldCommands.Resume.class,
      HoldCommands.Block.class,
      HoldCommands.Unblock.class,
      HoldCommands.Delay.class,
      HoldCommands.Cookies.class,
      ConfigCommand.class,
      CommandLine.HelpCommand.class
    })
public final class CrawlerCli {

  /** Exit code for bad arguments or configuration: nothing was started. */
  public static final int USAGE_ERROR = 2;

  @SuppressForbidden("the command's main: it ends the JVM with the command's exit code")
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code, without exiting. */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  /** The command line, set up as {@link #run} runs it (tests set its output). */
  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new CrawlerCli());
    commandLine.setExitCodeExceptionMapper(e -> USAGE_ERROR);
    commandLine.setParameterExceptionHandler(
        (e, a) -> {
          e.getCommandLine().getErr().println("crawler: " + e.getMessage());
          return USAGE_ERROR;
        });
    return commandLine;
  }
}
