package dev.crawler.common.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

class KnownKafkaNoiseTest {

  private final LoggerContext context = new LoggerContext();
  private final KnownKafkaNoise filter = new KnownKafkaNoise();

  @Test
  void replacesTheErrorsOfCorruptedTasksAfterAKillWithOneLine() {
    var corrupted = new TaskCorruptedException(Set.of(new TaskId(0, 1)));
    Object[] params = {"thread-1", Map.of(new TaskId(0, 1), corrupted)};

    assertThat(
            decide(
                KnownKafkaNoise.TASK_MANAGER,
                Level.ERROR,
                "stream-thread [{}] Get exceptions for the following tasks: {}",
                params,
                null))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                KnownKafkaNoise.TASK_MANAGER,
                Level.WARN,
                "stream-thread [{}] Encounter corrupted task {}, will group it with other corrupted tasks and handle together",
                new Object[] {"t", "0_1", corrupted},
                null))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void letsEveryOtherErrorThrough() {
    Object[] other = {"thread-1", Map.of(new TaskId(0, 1), new IllegalStateException("broken"))};

    assertThat(
            decide(
                KnownKafkaNoise.TASK_MANAGER,
                Level.ERROR,
                "stream-thread [{}] Get exceptions for the following tasks: {}",
                other,
                null))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(
                KnownKafkaNoise.REPLICA_MANAGER,
                Level.ERROR,
                "Error processing append operation on partition {}",
                new Object[] {"p"},
                new IllegalStateException()))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(
                "dev.crawler.frontier",
                Level.ERROR,
                "anything",
                null,
                new OutOfOrderSequenceException("x")))
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void dropsTheBrokersOutOfOrderSequenceErrorThatTheProducerRecoversFrom() {
    assertThat(
            decide(
                KnownKafkaNoise.REPLICA_MANAGER,
                Level.ERROR,
                "Error processing append operation on partition {}",
                new Object[] {"p"},
                new OutOfOrderSequenceException("Invalid sequence number")))
        .isEqualTo(FilterReply.DENY);
  }

  private FilterReply decide(
      String logger, Level level, String format, Object[] params, Throwable t) {
    return filter.decide(null, context.getLogger(logger), level, format, params, t);
  }
}
