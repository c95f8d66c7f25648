package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

/**
 * A lightly loaded thread asks for a commit once every task of it has been quiet for the quiet
 * time: once per pause, after a small burst that followed a pause of half a commit interval only,
 * and a task checks only while it has records not yet asked for. Each test runs on a thread of its
 * own, as the tasks of one stream thread.
 */
class QuietCommitTest {

  @Test
  void aTaskAsksForACommitOnceItsThreadHasBeenQuietForTheQuietTime() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50, 500);
          QuietCommit quiet = QuietCommit.of(context);
          assertThat(context.scheduledPunctuators()).as("nothing processed yet").isEmpty();

          quiet.processed();
          CapturedPunctuator check = only(context.scheduledPunctuators());
          assertThat(check.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
          assertThat(check.getInterval()).isEqualTo(QuietCommit.CHECK_INTERVAL);
          check.getPunctuator().punctuate(1_000);
          check.getPunctuator().punctuate(1_040);
          assertThat(context.committed()).as("quiet for 40 ms of 50").isFalse();
          check.getPunctuator().punctuate(1_050);
          assertThat(context.committed()).as("quiet for 50 ms").isTrue();
          assertThat(check.cancelled()).as("no more checks once asked").isTrue();
        });
  }

  @Test
  void aBusyThreadsBurstIsLeftToTheInterval() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50, 500);
          QuietCommit quiet = QuietCommit.of(context);
          for (int i = 0; i <= QuietCommit.MAX_BURST; i++) {
            quiet.processed();
          }
          CapturedPunctuator check = only(context.scheduledPunctuators());
          for (long now = 1_000; now <= 1_200; now += 10) {
            check.getPunctuator().punctuate(now);
          }
          assertThat(context.committed()).isFalse();
          assertThat(check.cancelled()).isTrue();

          // the next burst, small, after a pause
          quiet.processed();
          CapturedPunctuator next = context.scheduledPunctuators().get(1);
          next.getPunctuator().punctuate(1_300);
          next.getPunctuator().punctuate(1_310);
          next.getPunctuator().punctuate(1_350);
          assertThat(context.committed()).isTrue();
        });
  }

  @Test
  void aThreadWhoseInputKeepsComingLeavesItToTheInterval() {
    run(
        () -> {
          MockProcessorContext<Object, Object> first = context(50, 500);
          MockProcessorContext<Object, Object> second = context(50, 500);
          QuietCommit firstTask = QuietCommit.of(first);
          QuietCommit secondTask = QuietCommit.of(second);
          firstTask.processed();
          CapturedPunctuator firstCheck = only(first.scheduledPunctuators());
          firstCheck.getPunctuator().punctuate(1_000);
          firstCheck.getPunctuator().punctuate(1_050);
          assertThat(first.committed()).as("the thread's first burst").isTrue();
          first.resetCommit();

          for (long now = 1_060; now <= 2_000; now += 10) {
            // the thread's tasks process a record every 60 ms
            if (now % 60 == 0) {
              firstTask.processed();
              secondTask.processed();
            }
            for (MockProcessorContext<Object, Object> context : List.of(first, second)) {
              for (CapturedPunctuator check : context.scheduledPunctuators()) {
                if (!check.cancelled()) {
                  check.getPunctuator().punctuate(now);
                }
              }
            }
          }
          assertThat(first.committed()).isFalse();
          assertThat(second.committed()).isFalse();
        });
  }

  @Test
  void theTasksOfAThreadAskOncePerPause() {
    run(
        () -> {
          MockProcessorContext<Object, Object> first = context(50, 500);
          MockProcessorContext<Object, Object> second = context(50, 500);
          QuietCommit.of(first).processed();
          QuietCommit.of(second).processed();
          CapturedPunctuator firstCheck = only(first.scheduledPunctuators());
          CapturedPunctuator secondCheck = only(second.scheduledPunctuators());
          for (long now = 1_000; now <= 1_100; now += 10) {
            firstCheck.getPunctuator().punctuate(now);
            secondCheck.getPunctuator().punctuate(now);
          }
          assertThat(List.of(first.committed(), second.committed()))
              .as("one request, the thread's tasks committed together")
              .containsExactlyInAnyOrder(true, false);
          assertThat(firstCheck.cancelled()).isTrue();
          assertThat(secondCheck.cancelled()).isTrue();
        });
  }

  @Test
  void aBurstAfterAShortPauseIsLeftToTheIntervalAndOneAfterALongPauseIsNot() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50, 500);
          QuietCommit quiet = QuietCommit.of(context);
          quiet.processed();
          CapturedPunctuator check = only(context.scheduledPunctuators());
          check.getPunctuator().punctuate(1_000);
          check.getPunctuator().punctuate(1_050);
          assertThat(context.committed()).as("the thread's first burst").isTrue();
          context.resetCommit();

          // 100 ms after the last one: a busy thread's input, of half an interval (250 ms)
          quiet.processed();
          CapturedPunctuator next = context.scheduledPunctuators().get(1);
          next.getPunctuator().punctuate(1_100);
          next.getPunctuator().punctuate(1_150);
          assertThat(context.committed()).isFalse();
          assertThat(next.cancelled()).isTrue();

          // 400 ms after the last one
          quiet.processed();
          CapturedPunctuator isolated = context.scheduledPunctuators().get(2);
          isolated.getPunctuator().punctuate(1_500);
          isolated.getPunctuator().punctuate(1_550);
          assertThat(context.committed()).isTrue();
        });
  }

  @Test
  void tasksOfOtherThreadsDoNotHoldATaskBack() {
    MockProcessorContext<Object, Object> busy = context(50, 500);
    QuietCommit busyTask = supply(() -> QuietCommit.of(busy));
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(50, 500);
          QuietCommit quiet = QuietCommit.of(context);
          quiet.processed();
          CapturedPunctuator check = only(context.scheduledPunctuators());
          check.getPunctuator().punctuate(1_000);
          run(busyTask::processed);
          check.getPunctuator().punctuate(1_050);
          assertThat(context.committed()).isTrue();
        });
  }

  @Test
  void aQuietTimeOfZeroOrNoneNeverSchedulesACheck() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(0, 500);
          QuietCommit.of(context).processed();
          assertThat(context.scheduledPunctuators()).isEmpty();
          MockProcessorContext<Object, Object> none = new MockProcessorContext<>();
          QuietCommit.of(none).processed();
          assertThat(none.scheduledPunctuators()).isEmpty();
        });
  }

  @Test
  void whileTheCrawlDrainsAnyBurstIsCommittedOnceTheThreadIsQuiet() {
    run(
        () -> {
          AtomicBoolean draining = new AtomicBoolean();
          MockProcessorContext<Object, Object> context = context(0, 500, draining::get);
          QuietCommit quiet = QuietCommit.of(context);
          quiet.processed();
          assertThat(context.scheduledPunctuators()).as("not draining: no checks").isEmpty();

          draining.set(true);
          for (int i = 0; i <= QuietCommit.MAX_BURST; i++) {
            quiet.processed();
          }
          CapturedPunctuator check = only(context.scheduledPunctuators());
          check.getPunctuator().punctuate(1_000);
          check.getPunctuator().punctuate(1_010);
          assertThat(context.committed()).as("quiet for 10 ms of 20").isFalse();
          check.getPunctuator().punctuate(1_020);
          assertThat(context.committed()).as("a large burst, quiet for 20 ms").isTrue();
          assertThat(check.cancelled()).isTrue();
          context.resetCommit();

          // more comes 10 ms later: asked for again, no sooner than 50 ms after the last request
          quiet.processed();
          CapturedPunctuator next = context.scheduledPunctuators().get(1);
          next.getPunctuator().punctuate(1_030);
          next.getPunctuator().punctuate(1_060);
          assertThat(context.committed()).as("30 ms after the last request").isFalse();
          next.getPunctuator().punctuate(1_070);
          assertThat(context.committed()).isTrue();
          assertThat(next.cancelled()).isTrue();
          context.resetCommit();

          // the crawl goes on: a busy thread's burst is left to the interval again
          quiet.processed();
          CapturedPunctuator busy = context.scheduledPunctuators().get(2);
          busy.getPunctuator().punctuate(1_080);
          draining.set(false);
          for (long now = 1_090; now <= 1_300; now += 10) {
            busy.getPunctuator().punctuate(now);
          }
          assertThat(context.committed()).isFalse();
          assertThat(busy.cancelled()).isTrue();
          quiet.processed();
          assertThat(context.scheduledPunctuators()).as("no checks once it stopped").hasSize(3);
        });
  }

  @Test
  void whileTheCrawlDrainsAShorterQuietTimeOfTheSettingsWins() {
    run(
        () -> {
          MockProcessorContext<Object, Object> context = context(10, 500, () -> true);
          QuietCommit quiet = QuietCommit.of(context);
          quiet.processed();
          CapturedPunctuator check = only(context.scheduledPunctuators());
          check.getPunctuator().punctuate(1_000);
          check.getPunctuator().punctuate(1_010);
          assertThat(context.committed()).isTrue();
        });
  }

  private static MockProcessorContext<Object, Object> context(long quietMs, long intervalMs) {
    return new MockProcessorContext<>(properties(quietMs, intervalMs));
  }

  private static MockProcessorContext<Object, Object> context(
      long quietMs, long intervalMs, BooleanSupplier draining) {
    Properties properties = properties(quietMs, intervalMs);
    properties.put(QuietCommit.DRAINING_CONFIG, draining);
    return new MockProcessorContext<>(properties);
  }

  private static Properties properties(long quietMs, long intervalMs) {
    Properties properties = new Properties();
    properties.put(QuietCommit.QUIET_MS_CONFIG, quietMs);
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, intervalMs);
    return properties;
  }

  private static CapturedPunctuator only(List<CapturedPunctuator> punctuators) {
    assertThat(punctuators).hasSize(1);
    return punctuators.get(0);
  }

  /** Runs on a thread of its own, as a stream thread with tasks of its own. */
  private static void run(Runnable work) {
    CompletableFuture.runAsync(work, runnable -> new Thread(runnable).start()).join();
  }

  private static <T> T supply(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, runnable -> new Thread(runnable).start()).join();
  }
}
