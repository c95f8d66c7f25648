package dev.crawler.committer;

import dev.crawler.committer.streams.CommitterTopology;
import dev.crawler.common.RunningService;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.streams.StreamsService;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;

/** The committer service: settings, topology, Kafka Streams, shutdown hook. */
public final class CommitterApp {

  private CommitterApp() {}

  /** Starts the committer; returns at once. */
  public static RunningService start(CommitterConfig config) {
    return StreamsService.start(config.serviceName(), CommitterTopology.build(config.topics()), config.streamsProperties());
  }

  /**
   * Runs the committer until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    CommitterConfig config;
    try {
      config = new CommitterConfig(SettingsSource.load(Optional.ofNullable(args.length > 0 ? Path.of(args[0]) : null), System.getenv()));
    } catch (ConfigException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    RunningService service = start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(service::close, "committer-shutdown"));
  }
}
