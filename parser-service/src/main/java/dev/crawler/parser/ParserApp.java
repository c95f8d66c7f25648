package dev.crawler.parser;

import dev.crawler.common.RunningService;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.streams.StreamsService;
import dev.crawler.parser.streams.ParserTopology;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;

/** The parser service: settings, topology, Kafka Streams, shutdown hook. */
public final class ParserApp {

  private ParserApp() {}

  /** Starts the parser; returns at once. */
  public static RunningService start(ParserConfig config) {
    return StreamsService.start(config.serviceName(), ParserTopology.build(config.topics(), config.pageParser()), config.streamsProperties());
  }

  /**
   * Runs the parser until the process is stopped.
   *
   * @param args an optional properties file; {@code CRAWLER_*} environment variables override it
   */
  public static void main(String[] args) {
    ParserConfig config;
    try {
      config = new ParserConfig(SettingsSource.load(Optional.ofNullable(args.length > 0 ? Path.of(args[0]) : null), System.getenv()));
    } catch (ConfigException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    RunningService service = start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(service::close, "parser-shutdown"));
  }
}
