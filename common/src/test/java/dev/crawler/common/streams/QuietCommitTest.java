package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

/**
 * A task asks for a commit once every task of its thread has been quiet for the quiet time, only
 * when it processed records since it last asked, and never while the thread is busy.
 */
class QuietCommitTest {

  @Test
  void aTaskAsksForACommitOnceItsThreadHasBeenQuietForTheQuietTime() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50);
          QuietCommit quiet = QuietCommit.schedule(context);
          CapturedPunctuator check = context.scheduledPunctuators().get(0);
          assertThat(check.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
          assertThat(check.getInterval()).isEqualTo(QuietCommit.CHECK_INTERVAL);

          quiet.processed();
          check.getPunctuator().punctuate(1_000);
          check.getPunctuator().punctuate(1_040);
          assertThat(context.committed()).as("quiet for 40 ms of 50").isFalse();
          check.getPunctuator().punctuate(1_050);
          assertThat(context.committed()).as("quiet for 50 ms").isTrue();

          context.resetCommit();
          check.getPunctuator().punctuate(1_100);
          check.getPunctuator().punctuate(2_000);
          assertThat(context.committed()).as("nothing processed since it asked").isFalse();
        });
  }

  @Test
  void aThreadWhoseInputNeverPausesForTheQuietTimeCommitsAtTheIntervalOnly() {
    run(
        () -> {
          MockProcessorContext<Object, Object> first = context(50);
          MockProcessorContext<Object, Object> second = context(50);
          QuietCommit firstTask = QuietCommit.schedule(first);
          QuietCommit secondTask = QuietCommit.schedule(second);
          CapturedPunctuator firstCheck = first.scheduledPunctuators().get(0);
          CapturedPunctuator secondCheck = second.scheduledPunctuators().get(0);

          firstTask.processed();
          for (long now = 1_000; now <= 2_000; now += 10) {
            // the other task of the same thread keeps processing, a record every 30 ms
            if (now % 30 == 0) {
              secondTask.processed();
            }
            firstCheck.getPunctuator().punctuate(now);
            secondCheck.getPunctuator().punctuate(now);
          }
          assertThat(first.committed()).isFalse();
          assertThat(second.committed()).isFalse();

          firstCheck.getPunctuator().punctuate(2_050);
          secondCheck.getPunctuator().punctuate(2_050);
          assertThat(first.committed() || second.committed()).as("the thread quiet").isTrue();
        });
  }

  @Test
  void tasksOfOtherThreadsDoNotHoldATaskBack() {
    MockProcessorContext<Object, Object> busy = context(50);
    QuietCommit busyTask = run(() -> QuietCommit.schedule(busy));
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50);
          QuietCommit quiet = QuietCommit.schedule(context);
          CapturedPunctuator check = context.scheduledPunctuators().get(0);
          quiet.processed();
          check.getPunctuator().punctuate(1_000);
          run(busyTask::processed);
          check.getPunctuator().punctuate(1_050);
          assertThat(context.committed()).isTrue();
        });
  }

  @Test
  void aQuietTimeOfZeroSchedulesNothingAndNeverCommits() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(0);
          QuietCommit quiet = QuietCommit.schedule(context);
          quiet.processed();
          assertThat(context.scheduledPunctuators()).isEmpty();
          assertThat(context.committed()).isFalse();
        });
    MockProcessorContext<Object, Object> none = new MockProcessorContext<>();
    QuietCommit.schedule(none);
    assertThat(none.scheduledPunctuators()).as("no setting").isEmpty();
  }

  private static MockProcessorContext<Object, Object> context(long quietMs) {
    Properties properties = new Properties();
    properties.put(QuietCommit.QUIET_MS_CONFIG, quietMs);
    return new MockProcessorContext<>(properties);
  }

  /** Runs on a thread of its own, as a stream thread with tasks of its own. */
  private static void run(Runnable work) {
    CompletableFuture.runAsync(work, runnable -> new Thread(runnable).start()).join();
  }

  private static <T> T run(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, runnable -> new Thread(runnable).start()).join();
  }
}
