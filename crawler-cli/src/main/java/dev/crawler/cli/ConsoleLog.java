package dev.crawler.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the command line's log shows on the console: by default the crawler's own warnings (what a
 * user can act on) and anyone's errors; with {@code --verbose}, every line the services log. A
 * crawl also writes every line to a file of its data directory, whatever the verbosity.
 */
public final class ConsoleLog extends Filter<ILoggingEvent> {

  private static final String CRAWLER_LOGGERS = "dev.crawler.";

  /** The pattern of the log file: a date, as a file outlives the day it was written. */
  private static final String FILE_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX, UTC} %-5level [%thread] %logger{36} - %msg%n";

  private static volatile boolean verbose;

  /** The console shows every line the services log from now on. */
  public static void beVerbose() {
    verbose = true;
  }

  @Override
  public FilterReply decide(ILoggingEvent event) {
    Level level = event.getLevel();
    if (verbose || level.isGreaterOrEqual(Level.ERROR)) {
      return FilterReply.NEUTRAL;
    }
    return level.isGreaterOrEqual(Level.WARN) && event.getLoggerName().startsWith(CRAWLER_LOGGERS)
        ? FilterReply.NEUTRAL
        : FilterReply.DENY;
  }

  /**
   * Writes every line logged from now on to {@code file} as well (appended; its directory created).
   *
   * @return the file, or empty when logging goes to another backend than logback
   */
  public static Optional<Path> alsoTo(Path file) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return Optional.empty();
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(FILE_PATTERN);
    encoder.start();
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("FILE");
    appender.setFile(file.toString());
    appender.setAppend(true);
    appender.setEncoder(encoder);
    appender.start();
    if (!appender.isStarted()) {
      return Optional.empty(); // logback said why on its status: the directory is not writable
    }
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    return Optional.of(file);
  }
}
