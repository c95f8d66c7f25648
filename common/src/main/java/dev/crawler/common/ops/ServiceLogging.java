package dev.crawler.common.ops;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.LoggerFactory;

/**
 * How a service process logs: to standard output, as text or as JSON objects one per line
 * (logback's {@code JsonEncoder}: timestamp, level, thread, logger, formatted message, throwable),
 * at a root level; Kafka's, Jetty's and Micrometer's routine messages are left out below WARN.
 */
public final class ServiceLogging {

  /** The formats {@code log.format} takes. */
  public enum Format {
    TEXT,
    JSON
  }

  private ServiceLogging() {}

  /**
   * Replaces the logging configuration of the process.
   *
   * @param level the root level (TRACE, DEBUG, INFO, WARN, ERROR)
   */
  public static void configure(Format format, String level) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return; // another SLF4J backend is bound: it is configured its own way
    }
    URL configuration =
        Objects.requireNonNull(
            ServiceLogging.class.getResource(
                "logback-" + format.name().toLowerCase(Locale.ROOT) + ".xml"));
    context.reset();
    context.putProperty("crawler.log.level", level.toUpperCase(Locale.ROOT));
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(configuration);
    } catch (JoranException e) {
      throw new IllegalStateException("cannot configure logging from " + configuration, e);
    }
  }
}
