package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.Feedback.Kind;
import dev.crawler.fetcher.domain.OriginPoliteness.Change;
import dev.crawler.schemas.options.RequestOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OriginPolitenessTest {

  private static final long QUIET = 60_000;

  private static OriginPoliteness politeness() {
    return new OriginPoliteness(FetchOptions.defaults(1000, true), QUIET);
  }

  /** One request that starts and ends at {@code at} with this feedback. */
  private static Change request(OriginPoliteness politeness, long at, Feedback feedback) {
    politeness.started();
    return politeness.ended(at, feedback);
  }

  @ParameterizedTest(
      name = "option {0}, Crawl-delay {1}, cap {2}, back-off {3} -> {4} (capped {5})")
  @CsvSource({
    "1000,     -1, 60000,     0,  1000, false",
    "1000,   5000, 60000,     0,  5000, false",
    "1000, 120000, 60000,     0, 60000, true",
    "10000,  5000, 60000,     0, 10000, false",
    "1000,   5000, 60000,  8000,  8000, false",
    "0,        -1, 60000,     0,     0, false",
    "1000, 120000, 60000, 90000, 90000, true",
  })
  void resolvesTheDelayFromOptionCrawlDelayCapAndBackoff(
      long option, long crawlDelay, long cap, long backoff, long delay, boolean isCapped) {
    assertThat(OriginPoliteness.resolve(option, crawlDelay, cap, backoff))
        .isEqualTo(new OriginPoliteness.Delay(delay, isCapped));
  }

  @Test
  void takesRobotsCrawlDelayUpToTheCap() {
    OriginPoliteness politeness = politeness();

    assertThat(politeness.crawlDelay(OptionalLong.of(5000)))
        .isEqualTo(new OriginPoliteness.Delay(5000, false));
    assertThat(politeness.crawlDelay(OptionalLong.of(3_600_000)))
        .isEqualTo(new OriginPoliteness.Delay(60_000, true));
    assertThat(politeness.crawlDelay(OptionalLong.empty()))
        .isEqualTo(new OriginPoliteness.Delay(1000, false));
  }

  /**
   * The back-off curve: each rate limit without Retry-After doubles the delay, up to the cap of 10
   * minutes (600000 ms).
   */
  @ParameterizedTest(name = "after {0} rate limits the delay is {1} ms")
  @CsvSource({"1, 2000", "2, 4000", "3, 8000", "4, 16000", "9, 512000", "10, 600000", "11, 600000"})
  void doublesTheDelayOnEachRateLimitUpToTheCap(int rateLimits, long delay) {
    OriginPoliteness politeness = politeness();
    for (int i = 0; i < rateLimits; i++) {
      assertThat(request(politeness, i, FeedbackTest.of(Kind.RATE_LIMITED)))
          .isEqualTo(Change.BACKED_OFF);
    }

    assertThat(politeness.delay().millis()).isEqualTo(delay);
    assertThat(politeness.patience()).as("a rate limit is not a failure").isEqualTo(5);
  }

  @Test
  void honoursRetryAfter() {
    OriginPoliteness politeness = politeness();

    request(politeness, 10_000, new Feedback(Kind.RATE_LIMITED, OptionalLong.of(120_000)));

    assertThat(politeness.nextStartAt()).isEqualTo(130_000);
    assertThat(politeness.isReady(129_999)).isFalse();
    assertThat(politeness.isReady(130_000)).isTrue();
    assertThat(politeness.delay().millis()).isEqualTo(120_000);
  }

  @Test
  void capsRetryAfterAtTheMaximumBackoff() {
    OriginPoliteness politeness =
        new OriginPoliteness(
            FetchOptions.defaults(1000, true)
                .with(Map.of(RequestOptions.MAX_BACKOFF_MS.name(), "30000")),
            QUIET);

    request(politeness, 0, new Feedback(Kind.RATE_LIMITED, OptionalLong.of(3_600_000)));

    assertThat(politeness.nextStartAt()).isEqualTo(30_000);
  }

  /**
   * After a quiet period without trouble, each answered request halves the back-off, down to none.
   */
  @ParameterizedTest(name = "answered at {0} ms -> back-off {1}")
  @CsvSource({"30000, 8000", "60000, 4000"})
  void decaysTheBackoffAfterAQuietPeriod(long answeredAt, long backoff) {
    OriginPoliteness politeness = politeness();
    for (int i = 0; i < 3; i++) {
      request(politeness, 0, FeedbackTest.of(Kind.RATE_LIMITED));
    }
    assertThat(politeness.backoffMillis()).isEqualTo(8000);

    request(politeness, answeredAt, FeedbackTest.answered());

    assertThat(politeness.backoffMillis()).isEqualTo(backoff);
  }

  @Test
  void decaysStepByStepToTheConfiguredDelay() {
    OriginPoliteness politeness = politeness();
    for (int i = 0; i < 3; i++) {
      request(politeness, 0, FeedbackTest.of(Kind.RATE_LIMITED));
    }
    List<Long> backoffs = new ArrayList<>();
    for (long at = 60_000; at <= 240_000; at += 60_000) {
      request(politeness, at, FeedbackTest.answered());
      backoffs.add(politeness.backoffMillis());
    }

    assertThat(backoffs).containsExactly(4000L, 2000L, 0L, 0L);
    assertThat(politeness.delay().millis()).isEqualTo(1000);
  }

  /** Patience: persistent-looking failures lower it; at 0 the origin is paused. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // failures in a row, then what the last one changed and the patience left
    "'UNREACHABLE',                                              BACKED_OFF, 4",
    "'UNREACHABLE UNREACHABLE UNREACHABLE UNREACHABLE',          BACKED_OFF, 1",
    "'UNREACHABLE UNREACHABLE UNREACHABLE UNREACHABLE UNREACHABLE', PAUSED,  5",
    "'PROTOCOL_ERROR',                                           BACKED_OFF, 4",
    "'TIMEOUT',                                                  BACKED_OFF, 5",
    "'TIMEOUT TIMEOUT',                                          BACKED_OFF, 4",
    "'SERVER_ERROR',                                             BACKED_OFF, 5",
    "'SERVER_ERROR SERVER_ERROR SERVER_ERROR',                   BACKED_OFF, 3",
    "'BROKEN BROKEN',                                            BACKED_OFF, 4",
    "'UNREACHABLE ANSWERED',                                     NONE,       5",
    "'TIMEOUT ANSWERED TIMEOUT',                                 BACKED_OFF, 5",
    "'UNREACHABLE RATE_LIMITED',                                 BACKED_OFF, 4",
    "'SERVER_ERROR SERVER_ERROR SERVER_ERROR SERVER_ERROR SERVER_ERROR SERVER_ERROR', PAUSED, 5",
  })
  void lowersPatienceOnFailuresThatLookPersistentAndPausesAtZero(
      String kinds, Change lastChange, int patienceLeft) {
    OriginPoliteness politeness = politeness();
    Change change = Change.NONE;
    long at = 0;
    for (String kind : kinds.split(" ")) {
      at += 1000;
      change = request(politeness, at, FeedbackTest.of(Kind.valueOf(kind)));
    }

    assertThat(change).isEqualTo(lastChange);
    assertThat(politeness.patience()).isEqualTo(patienceLeft);
    assertThat(politeness.isPaused(at)).isEqualTo(lastChange == Change.PAUSED);
  }

  @Test
  void staysPausedForThePauseOptionThenGoesOnWithFullPatience() {
    OriginPoliteness politeness =
        new OriginPoliteness(
            FetchOptions.defaults(1000, true)
                .with(
                    Map.of(
                        RequestOptions.PATIENCE.name(),
                        "2",
                        RequestOptions.PAUSE_MS.name(),
                        "300000")),
            QUIET);

    request(politeness, 1000, FeedbackTest.of(Kind.UNREACHABLE));
    Change change = request(politeness, 2000, FeedbackTest.of(Kind.UNREACHABLE));

    assertThat(change).isEqualTo(Change.PAUSED);
    assertThat(politeness.pausedUntil()).isEqualTo(302_000);
    assertThat(politeness.isReady(301_999)).isFalse();
    assertThat(politeness.isReady(302_000)).isTrue();
    assertThat(politeness.patience()).isEqualTo(2);
  }

  @Test
  void runsAtMostMaxConnectionsRequestsAtOnce() {
    OriginPoliteness politeness =
        new OriginPoliteness(
            FetchOptions.defaults(0, true)
                .with(Map.of(RequestOptions.MAX_CONNECTIONS_PER_ORIGIN.name(), "2")),
            QUIET);

    politeness.started();
    assertThat(politeness.isReady(0)).isTrue();
    politeness.started();
    assertThat(politeness.isReady(0)).isFalse();
    politeness.ended(5, FeedbackTest.answered());
    assertThat(politeness.isReady(5)).isTrue();
  }

  @Test
  void handsItsStateToTheNextOwner() {
    OriginPoliteness previous = politeness();
    request(previous, 10_000, FeedbackTest.of(Kind.RATE_LIMITED));
    request(previous, 12_000, FeedbackTest.of(Kind.UNREACHABLE));
    OriginPoliteness.Snapshot snapshot = previous.snapshot(12_500);

    OriginPoliteness next = politeness();
    next.restore(snapshot);

    assertThat(next.nextStartAt()).isEqualTo(previous.nextStartAt()).isEqualTo(12_000 + 4000);
    assertThat(next.isReady(15_999)).isFalse();
    assertThat(next.patience()).isEqualTo(4);
    assertThat(next.backoffMillis()).isEqualTo(4000);
    assertThat(next.snapshot(12_500)).isEqualTo(snapshot);
  }

  @Test
  void aSnapshotTakenWhileARequestRunsWaitsAFullDelayFromNow() {
    OriginPoliteness politeness = politeness();
    politeness.started();

    assertThat(politeness.snapshot(50_000).nextStartAt()).isEqualTo(51_000);
  }

  @Test
  void isDefaultOnlyWhenThereIsNothingToHandOver() {
    OriginPoliteness politeness = politeness();
    assertThat(politeness.isDefault(0)).isTrue();

    request(politeness, 1000, FeedbackTest.answered());

    assertThat(politeness.isDefault(1500)).as("its delay is still running").isFalse();
    assertThat(politeness.isDefault(2000)).isTrue();
  }

  @ParameterizedTest(name = "{0} -> worth sharing at once: {1}")
  @CsvSource({
    "answered,                   false",
    "rate limited for 5 s,       true",
    "one timeout,                true",
    "next request in 11 s,       true",
  })
  void sharesAtOnceOnlyWhatMustSurviveACrash(String what, boolean isWorthSharing) {
    OriginPoliteness politeness =
        new OriginPoliteness(
            FetchOptions.defaults(what.equals("next request in 11 s") ? 11_000 : 1000, true),
            QUIET);
    Feedback feedback =
        switch (what) {
          case "rate limited for 5 s" -> new Feedback(Kind.RATE_LIMITED, OptionalLong.of(5000));
          case "one timeout" -> FeedbackTest.of(Kind.UNREACHABLE);
          default -> FeedbackTest.answered();
        };
    request(politeness, 0, feedback);

    assertThat(politeness.isWorthSharing(0)).isEqualTo(isWorthSharing);
  }

  @ParameterizedTest(name = "next {0}, paused {1}, back-off {2} changed {3}, streak {4} at 100000")
  @CsvSource({
    "99999,      0,    0,      0, 0, true,  true",
    "100000,     0,    0,      0, 0, false, false",
    "99999, 200000,    0,      0, 0, false, false",
    "99999,      0, 2000,      0, 0, false, true",
    "99999,      0, 2000,  99999, 0, false, false",
    "99999,      0,    0,      0, 2, false, true",
  })
  void saysWhenATakenOverStateIsSpentOrStale(
      long next,
      long pausedUntil,
      long backoff,
      long backoffChangedAt,
      int streak,
      boolean isSpent,
      boolean isStale) {
    OriginPoliteness.Snapshot snapshot =
        new OriginPoliteness.Snapshot(next, backoff, backoffChangedAt, 5, streak, pausedUntil);

    assertThat(snapshot.isSpent(100_000)).isEqualTo(isSpent);
    assertThat(snapshot.isStale(100_000, 10_000)).isEqualTo(isStale);
  }
}
