package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.robots.SimpleRobotRules;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostQueueTest {

  private static HostQueue<String> host() {
    return new HostQueue<>(
        "http://a.example", new OriginPoliteness(FetchOptions.defaults(1000, true), 60_000), 0);
  }

  @Test
  void startsTheNextRequestNoSoonerThanTheDelayAfterTheLastOneEnded() {
    HostQueue<String> host = host();
    host.add("one");
    host.add("two");

    assertThat(host.isReady(0)).isTrue();
    assertThat(host.poll()).contains("one");
    host.politeness().started();
    assertThat(host.isReady(5000)).as("busy: one request at a time").isFalse();
    host.politeness().ended(1500, FeedbackTest.answered());
    assertThat(host.isReady(2499)).isFalse();
    assertThat(host.nextStartAt()).isEqualTo(2500);
    assertThat(host.isReady(2500)).isTrue();
    assertThat(host.poll()).contains("two");
    assertThat(host.hasWaiting()).isFalse();
  }

  @Test
  void startsNothingElseWhileRobotsTxtIsFetched() {
    HostQueue<String> host = host();
    host.add("one");
    host.fetchingRobots(true);

    assertThat(host.isReady(0)).isFalse();
    host.fetchingRobots(false);
    assertThat(host.isReady(0)).isTrue();
  }

  @Test
  void needsRobotsUntilFetchedAndAgainWhenExpired() {
    HostQueue<String> host = host();
    assertThat(host.needsRobots(0)).isTrue();

    host.robots(new SimpleRobotRules(), 1000);

    assertThat(host.needsRobots(999)).isFalse();
    assertThat(host.needsRobots(1000)).isTrue();
    assertThat(host.robotsExpireAt()).isEqualTo(1000);
  }

  @Test
  void dropsTheWaitingRequestsOfARevokedPartition() {
    HostQueue<String> host = host();
    host.add("p0-a");
    host.add("p1-b");
    host.add("p0-c");

    assertThat(host.removeIf(request -> request.startsWith("p0"))).isEqualTo(2);
    assertThat(host.poll()).contains("p1-b");
  }

  @Test
  void drainsEveryWaitingRequestInOrder() {
    HostQueue<String> host = host();
    host.add("a");
    host.add("b");

    assertThat(host.drain()).containsExactly("a", "b");
    assertThat(host.hasWaiting()).isFalse();
  }

  @Test
  void defersWaitingRequestsWhileTheOriginIsPaused() {
    HostQueue<String> host = host();
    host.add("one");
    for (int i = 0; i < 5; i++) {
      host.politeness().started();
      host.politeness().ended(1000, FeedbackTest.of(Feedback.Kind.UNREACHABLE));
    }
    long pausedUntil = host.politeness().pausedUntil();
    assertThat(pausedUntil).as("patience 5 ran out").isGreaterThan(1000);

    assertThat(host.deferral(2000, 120_000))
        .contains(new HostQueue.Deferral(pausedUntil, "origin paused (patience ran out)"));
    assertThat(host.comesBackAt(2000, 120_000)).isEqualTo(pausedUntil);
  }

  @ParameterizedTest(
      name = "next start {0} ms away, hold {1} ms, robots fetched {2} -> deferred {3}")
  @CsvSource({
    "120001, 120000, false, true",
    "120000, 120000, false, false",
    "120001, 120000, true,  false",
  })
  void defersWaitingRequestsOnlyWhenTheNextStartIsFurtherAwayThanTheyMayBeHeld(
      long nextStartIn, long maxHold, boolean isFetchingRobots, boolean isDeferred) {
    HostQueue<String> host = host();
    host.add("one");
    host.politeness().started();
    host.politeness()
        .ended(0, new Feedback(Feedback.Kind.RATE_LIMITED, OptionalLong.of(nextStartIn)));
    host.fetchingRobots(isFetchingRobots);
    long now = host.nextStartAt() - nextStartIn;

    assertThat(host.deferral(now, maxHold).isPresent()).isEqualTo(isDeferred);
    host.deferral(now, maxHold)
        .ifPresent(
            deferral -> {
              assertThat(deferral.until()).isEqualTo(host.nextStartAt());
              assertThat(deferral.reason()).isEqualTo("origin's next request not due within 120 s");
            });
  }

  @Test
  void defersNothingWhenNothingWaits() {
    HostQueue<String> host = host();
    host.politeness().started();
    host.politeness().ended(0, new Feedback(Feedback.Kind.RATE_LIMITED, OptionalLong.of(600_000)));

    assertThat(host.deferral(0, 1000)).isEmpty();
    assertThat(host.comesBackAt(0, 1000))
        .as("the next URL comes back then")
        .isEqualTo(host.nextStartAt());
    assertThat(host.comesBackAt(0, 600_000)).as("soon enough: at once").isZero();
  }

  @Test
  void isIdleOnlyWithNothingWaitingOrRunningItsDelayOverAndItsRobotsExpired() {
    HostQueue<String> host = host();
    host.robots(new SimpleRobotRules(), 10_000);
    assertThat(host.isIdle(5_000)).as("robots.txt still valid").isFalse();
    assertThat(host.isIdle(10_000)).isTrue();

    host.add("one");
    assertThat(host.isIdle(10_000)).as("a request waits").isFalse();
    host.poll();
    host.politeness().started();
    assertThat(host.isIdle(10_000)).as("a request runs").isFalse();
    host.politeness().ended(10_000, FeedbackTest.answered());
    assertThat(host.isIdle(10_500)).as("its delay is not over").isFalse();
    assertThat(host.isIdle(11_001)).isTrue();
  }

  @Test
  void noticesAPauseAndItsEndOnce() {
    HostQueue<String> host = host();
    assertThat(host.noticePauseOver()).isFalse();
    assertThat(host.noticePause()).isTrue();
    assertThat(host.noticePause()).isFalse();
    assertThat(host.isPauseNoticed()).isTrue();
    assertThat(host.noticePauseOver()).isTrue();
    assertThat(host.noticePauseOver()).isFalse();
    assertThat(host.noticeRobotsIgnored()).isTrue();
    assertThat(host.noticeRobotsIgnored()).isFalse();
  }
}
