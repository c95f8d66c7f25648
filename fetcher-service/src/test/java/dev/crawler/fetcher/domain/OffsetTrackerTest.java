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
    assertThat(tracker.commit())
        .as("10 is not done: nothing past it, 11 and 12 as metadata")
        .contains(new OffsetTracker.Commit(10, "done:11-12"));

    tracker.done(10);
    assertThat(tracker.commit()).contains(new OffsetTracker.Commit(13, ""));
    tracker.committed(new OffsetTracker.Commit(13, ""));
    assertThat(tracker.commit()).as("nothing new").isEmpty();
  }

  @Test
  void commitsAgainUntilKafkaAcknowledgesTheCommit() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(10);
    tracker.done(10);

    assertThat(tracker.commit()).contains(new OffsetTracker.Commit(11, ""));
    assertThat(tracker.commit())
        .as("the commit failed: nothing changed, but it is still to be made")
        .contains(new OffsetTracker.Commit(11, ""));
    tracker.committed(new OffsetTracker.Commit(11, ""));
    assertThat(tracker.commit()).isEmpty();
  }

  @Test
  void anOlderAcknowledgementDoesNotUndoANewerOne() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(10);
    tracker.received(11);
    tracker.done(10);
    OffsetTracker.Commit first = tracker.commit().orElseThrow();
    tracker.done(11);
    OffsetTracker.Commit second = tracker.commit().orElseThrow();

    tracker.committed(second);
    tracker.committed(first);

    assertThat(tracker.commit()).isEmpty();
  }

  @Test
  void skipsGapsLeftByTransactionMarkers() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(5);
    tracker.received(7);
    tracker.done(5);
    assertThat(tracker.commit())
        .as("6 was a marker, 7 is waiting")
        .contains(new OffsetTracker.Commit(7, ""));
    tracker.done(7);
    assertThat(tracker.commit()).contains(new OffsetTracker.Commit(8, ""));
  }

  @Test
  void commitsUpToTheConsumersPositionPastATrailingMarkerOnceEveryRequestIsDone() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.received(5);
    tracker.received(6);
    tracker.readUpTo(8); // 7 is the marker of the transaction that wrote 5 and 6
    tracker.done(6);
    assertThat(tracker.commit()).as("5 is waiting").contains(new OffsetTracker.Commit(5, "done:6"));
    tracker.done(5);

    assertThat(tracker.commit()).as("lag 0, not 1").contains(new OffsetTracker.Commit(8, ""));
    tracker.readUpTo(7);
    tracker.committed(new OffsetTracker.Commit(8, ""));
    assertThat(tracker.commit()).as("a position never goes back").isEmpty();
  }

  @Test
  void ignoresOffsetsItNeverReceived() {
    OffsetTracker tracker = new OffsetTracker();
    tracker.done(3);
    assertThat(tracker.commit()).isEmpty();
  }

  @Test
  void commitsTheOffsetsDoneBeyondTheFirstWaitingOneAsMetadata() {
    OffsetTracker tracker = new OffsetTracker();
    for (long offset = 10; offset <= 16; offset++) {
      tracker.received(offset);
    }
    tracker.done(10);
    tracker.done(12);
    tracker.done(13);
    tracker.done(15);

    assertThat(tracker.commit()).contains(new OffsetTracker.Commit(11, "done:12-13,15"));
    tracker.committed(new OffsetTracker.Commit(11, "done:12-13,15"));
    assertThat(tracker.commit()).as("nothing changed").isEmpty();
    tracker.done(16);
    assertThat(tracker.commit())
        .as("the metadata changed")
        .contains(new OffsetTracker.Commit(11, "done:12-13,15-16"));
  }

  @Test
  void theNextOwnerSkipsWhatThePreviousOneDid() {
    OffsetTracker next = OffsetTracker.resuming("done:12-13,15");

    assertThat(next.received(11)).isTrue();
    assertThat(next.received(12)).isFalse();
    assertThat(next.received(13)).isFalse();
    assertThat(next.received(14)).isTrue();
    assertThat(next.received(15)).isFalse();
    next.done(11);
    next.done(14);
    assertThat(next.commit()).contains(new OffsetTracker.Commit(16, ""));
  }

  @Test
  void fetchesEverythingAgainWhenTheMetadataIsNotItsOwn() {
    assertThat(OffsetTracker.resuming("something else").received(12)).isTrue();
    assertThat(OffsetTracker.resuming("done:x-y").received(12)).isTrue();
    assertThat(OffsetTracker.resuming(null).received(12)).isTrue();
  }

  @Test
  void keepsTheMetadataWithinTheBrokersLimit() {
    OffsetTracker tracker = new OffsetTracker();
    for (long offset = 0; offset < 4000; offset++) {
      tracker.received(offset);
      if (offset % 2 == 1) {
        tracker.done(offset);
      }
    }

    assertThat(tracker.commit().orElseThrow().metadata().length())
        .isLessThanOrEqualTo(OffsetTracker.MAX_METADATA_CHARS);
  }
}
