package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.state.OriginState;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OriginWindowTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  @ParameterizedTest(name = "queue {0}..{1}, in flight {2}, window {3}, held {4} s -> {5}")
  @CsvSource({
    "0, 3, 0, 2,   0, true",
    "0, 3, 1, 2,   0, true",
    "0, 3, 2, 2,   0, false",
    "3, 3, 0, 2,   0, false",
    "0, 3, 0, 2,  30, false",
    "0, 3, 0, 2, -30, true",
  })
  void releasesWhileTheWindowHasRoomAndTheOriginIsNotHeld(
      long head, long tail, int inFlight, int window, long heldSeconds, boolean canRelease) {
    OriginState origin =
        OriginState.newBuilder()
            .setHead(head)
            .setTail(tail)
            .setInFlight(inFlight)
            .setPausedUntil(NOW.plusSeconds(heldSeconds))
            .build();

    assertThat(OriginWindow.canRelease(origin, window, NOW)).isEqualTo(canRelease);
  }

  @ParameterizedTest(
      name =
          "held until {0} s, fetcher delay {1}, retry at {2} s -> held until {3} s, new hold {4}")
  @CsvSource({
    "-10,     ,     , -10, false",
    "-10,  500,  60,   60, true",
    " 30,     ,  60,   60, false",
    " 90,     ,  60,   90, false",
    "-10,     , -5,   -5, true",
  })
  void anOutcomeReturnsTheCreditAndMayHoldTheOrigin(
      long heldSeconds, Long delay, Long retrySeconds, long heldAfter, boolean isNewHold) {
    OriginState origin =
        OriginState.newBuilder()
            .setInFlight(2)
            .setDelayMillis(1000)
            .setPausedUntil(NOW.plusSeconds(heldSeconds))
            .build();

    boolean newHold =
        OriginWindow.ended(
            origin, delay, retrySeconds == null ? null : NOW.plusSeconds(retrySeconds), NOW);

    assertThat(newHold).isEqualTo(isNewHold);
    assertThat(origin.getInFlight()).isEqualTo(1);
    assertThat(origin.getDelayMillis()).isEqualTo(delay == null ? 1000 : delay);
    assertThat(origin.getPausedUntil()).isEqualTo(NOW.plusSeconds(heldAfter));
  }
}
