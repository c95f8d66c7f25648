package dev.crawler.cli;

import dev.crawler.cli.crawl.CrawlCommand;
import dev.crawler.cli.status.StatusCommand;
import dev.crawler.common.SuppressForbidden;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code crawler} command: entry point and the list of subcommands. */
@Command(
    name = "crawler",
    mixinStandardHelpOptions = true,
    version = "crawler 0.1.0",
    description = "A Kafka-native web crawler.")
public final class CrawlerCli {

  /** Exit code for bad arguments or configuration: nothing was started. */
  public static final int USAGE_ERROR = 2;

  @SuppressForbidden("the command's main: it ends the JVM with the command's exit code")
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** The subcommands, in the order the help lists them. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
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
          CommandLine.HelpCommand.class);

  /** Runs the command line and returns the exit code, without exiting. */
  public static int run(String... args) {
    return commandLine(args).execute(args);
  }

  /**
   * The command line with every subcommand, set up as {@link #run} runs it (tests set its output).
   */
  static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /**
   * The command line for these arguments: when they start with a subcommand's name, that subcommand
   * only, as picocli reads each subcommand's options and their help by reflection when it is added
   * (a tenth of a second for all of them, before a crawl can start); every one otherwise, for the
   * help, for {@code help} and for a name that is not one.
   */
  static CommandLine commandLine(String... args) {
    CommandLine commandLine = new CommandLine(new CrawlerCli());
    List<Class<?>> named =
        args.length == 0
            ? List.of()
            : SUBCOMMANDS.stream()
                .filter(type -> type != CommandLine.HelpCommand.class && isNamed(type, args[0]))
                .toList();
    (named.isEmpty() ? SUBCOMMANDS : named).forEach(commandLine::addSubcommand);
    commandLine.setExitCodeExceptionMapper(e -> USAGE_ERROR);
    commandLine.setParameterExceptionHandler(
        (e, a) -> {
          e.getCommandLine().getErr().println("crawler: " + e.getMessage());
          return USAGE_ERROR;
        });
    return commandLine;
  }

  private static boolean isNamed(Class<?> type, String name) {
    Command command = type.getAnnotation(Command.class);
    return command != null
        && (command.name().equals(name) || Arrays.asList(command.aliases()).contains(name));
  }
}
