package dev.crawler.common;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.ops.ControlEndpoint;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.ManagementServer;
import dev.crawler.common.ops.ServiceLogging;
import dev.crawler.common.ops.ServiceMetrics;
import dev.crawler.schemas.serde.SchemaRegistryClient;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.slf4j.LoggerFactory;

/**
 * What every service's {@code main} does: read the settings (an optional properties file named by
 * the first argument, then {@code CRAWLER_*} variables), stop with one line and exit code 2 when
 * one is bad, configure logging, start the service and its management endpoints ({@link
 * ManagementServer}: health and Prometheus metrics), and on SIGTERM turn not-ready at once, then
 * close the service, which finishes or hands back its in-flight work.
 */
public final class ServiceLauncher {

  /** The exit code for a bad setting: nothing was started. */
  public static final int BAD_SETTINGS = 2;

  /** The exit code when the service could not start (the management port is taken). */
  public static final int START_FAILED = 1;

  private ServiceLauncher() {}

  /**
   * Starts a service from the command line; returns once it runs (its own threads keep the JVM
   * alive).
   *
   * @param service the service's name: the {@code service} tag of its meters
   * @param settings reads the settings, throwing {@link ConfigException} naming a bad one
   * @param start starts the service
   */
  @SuppressForbidden("a service's main: it ends the JVM with the exit code that says why")
  public static <C extends ServiceConfig> void launch(
      String service,
      String[] args,
      Function<Map<String, String>, C> settings,
      Function<C, ? extends RunningService> start) {
    C config;
    try {
      config =
          settings.apply(
              SettingsSource.load(
                  Optional.ofNullable(args.length > 0 ? Path.of(args[0]) : null), System.getenv()));
    } catch (ConfigException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(BAD_SETTINGS);
      return;
    }
    ServiceLogging.configure(config.logFormat(), config.getString(ServiceConfig.LOG_LEVEL_CONFIG));
    // the registry is there before the service's first
    // meter, so every meter is in it from the start
    PrometheusMeterRegistry registry = ServiceMetrics.forService(service);
    RunningService running = start.apply(config);
    running.bindMetrics(registry);
    SchemaRegistryClient schemaRegistry = config.registryClient();
    List<HealthCheck> readiness = new ArrayList<>(running.readinessChecks());
    readiness.add(HealthCheck.of("schema-registry", schemaRegistry::checkReachable));
    ManagementServer management;
    try {
      management =
          ManagementServer.start(
              config.getInt(ServiceConfig.MANAGEMENT_PORT_CONFIG),
              new HealthCheck("service", running::livenessProblem),
              readiness,
              registry,
              Optional.of(
                  new ControlEndpoint(
                      config.kafkaProperties(),
                      config.topics(),
                      Optional.ofNullable(
                              config.getPassword(ServiceConfig.MANAGEMENT_CONTROL_TOKEN_CONFIG))
                          .map(Password::value),
                      service)));
    } catch (UncheckedIOException e) {
      LoggerFactory.getLogger(ServiceLauncher.class)
          .error("{} not started: {}", service, e.getMessage());
      running.close();
      System.exit(START_FAILED);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  management.stopping();
                  running.close();
                  management.close();
                },
                service + "-shutdown"));
  }
}
