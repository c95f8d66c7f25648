package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

  @Test
  void commitsOnlyUpToTheFirstRequestNotDone() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(10);
    tracker.received(11);
    tracker.received(12);

    tracker.done(11);
    tracker.done(12);
    assertThat(tracker.committable()).as("10 is not done: nothing past it").isEmpty();

    tracker.done(10);
    assertThat(tracker.committable()).contains(13L);
    assertThat(tracker.committable()).as("nothing new").isEmpty();
    assertThat(tracker.pending()).isZero();
  }

  @Test
  void skipsGapsLeftByTransactionMarkers() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(5);
    tracker.received(7);
    tracker.done(5);
    assertThat(tracker.committable()).contains(6L);
    tracker.done(7);
    assertThat(tracker.committable()).contains(8L);
  }

  @Test
  void ignoresOffsetsItNeverReceived() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.done(3);
    assertThat(tracker.committable()).isEmpty();
  }
}
