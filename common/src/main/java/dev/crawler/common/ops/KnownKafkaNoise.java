package dev.crawler.common.ops;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Kafka's ERROR and stack-trace WARN events for situations that Kafka recovers from by itself,
 * replaced by one line that says what happened, so an operator's search for ERROR finds real
 * errors:
 *
 * <ul>
 *   <li>Kafka Streams' "Get exceptions for the following tasks" (ERROR) and "Encounter corrupted
 *       task" (WARN, ~50 stack frames) after an exactly-once service stopped without closing its
 *       state (killed): the tasks' stores are wiped and restored from their changelogs, as
 *       exactly-once requires.
 *   <li>The embedded broker's ReplicaManager ERROR for an out-of-order sequence of a transactional
 *       producer whose first batch of a transaction was refused with CONCURRENT_TRANSACTIONS: the
 *       producer retries the batches in order and they are appended.
 * </ul>
 *
 * Any other event passes untouched. Thread-safe.
 */
public final class KnownKafkaNoise extends TurboFilter {

  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(KnownKafkaNoise.class);

  static final String TASK_MANAGER = "org.apache.kafka.streams.processor.internals.TaskManager";
  static final String REPLICA_MANAGER = "kafka.server.ReplicaManager";

  /** By name: the fetcher's process has no Kafka Streams on its class path. */
  static final String TASK_CORRUPTED = "org.apache.kafka.streams.errors.TaskCorruptedException";

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (format == null || level == null || !level.isGreaterOrEqual(Level.WARN)) {
      return FilterReply.NEUTRAL;
    }
    String name = logger.getName();
    if (name.equals(TASK_MANAGER)
        && format.startsWith("stream-thread [{}] Get exceptions for the following tasks")
        && onlyCorruptedTasks(params)) {
      LOG.warn(
          "state of tasks {} was not closed cleanly (the process was killed): wiped and restored from the changelog",
          taskIds(params));
      return FilterReply.DENY;
    }
    if (name.equals(TASK_MANAGER)
        && format.contains("Encounter corrupted task")
        && isTaskCorrupted(throwable(params, t))) {
      return FilterReply.DENY; // said once above
    }
    if (name.equals(REPLICA_MANAGER)
        && throwable(params, t) instanceof OutOfOrderSequenceException) {
      LOG.debug(
          "broker: out-of-order sequence refused, the transactional producer retries it in order");
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  /** The event's throwable: given apart, or as the last argument of a parameterized message. */
  private static Throwable throwable(Object[] params, Throwable t) {
    if (t != null) {
      return t;
    }
    return params != null
            && params.length > 0
            && params[params.length - 1] instanceof Throwable last
        ? last
        : null;
  }

  private static boolean isTaskCorrupted(Object thrown) {
    return thrown != null && thrown.getClass().getName().equals(TASK_CORRUPTED);
  }

  private static boolean onlyCorruptedTasks(Object[] params) {
    Map<?, ?> exceptions = exceptions(params);
    return exceptions != null
        && !exceptions.isEmpty()
        && exceptions.values().stream().allMatch(KnownKafkaNoise::isTaskCorrupted);
  }

  private static Object taskIds(Object[] params) {
    Map<?, ?> exceptions = exceptions(params);
    return exceptions == null ? "?" : exceptions.keySet();
  }

  private static Map<?, ?> exceptions(Object[] params) {
    if (params == null) {
      return null;
    }
    for (Object param : params) {
      if (param instanceof Map<?, ?> map) {
        return map;
      }
    }
    return null;
  }
}
