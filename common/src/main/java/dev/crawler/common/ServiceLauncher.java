package dev.crawler.common;

import dev.crawler.common.config.SettingsSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigException;

/**
 * What every service's {@code main} does: read the settings (an optional properties file named by the
 * first argument, then {@code CRAWLER_*} variables), stop with one line and exit code 2 when one is
 * bad, start the service, and close it when the process is asked to stop.
 */
public final class ServiceLauncher {

  /** The exit code for a bad setting: nothing was started. */
  public static final int BAD_SETTINGS = 2;

  private ServiceLauncher() {}

  /**
   * Starts a service from the command line; returns once it runs (its own threads keep the JVM alive).
   *
   * @param settings reads the settings, throwing {@link ConfigException} naming a bad one
   * @param start starts the service
   */
  public static <C> void launch(String[] args, Function<Map<String, String>, C> settings, Function<C, ? extends RunningService> start) {
    C config;
    try {
      config = settings.apply(SettingsSource.load(Optional.ofNullable(args.length > 0 ? Path.of(args[0]) : null), System.getenv()));
    } catch (ConfigException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(BAD_SETTINGS);
      return;
    }
    RunningService service = start.apply(config);
    Runtime.getRuntime().addShutdownHook(new Thread(service::close, service.name() + "-shutdown"));
  }
}
