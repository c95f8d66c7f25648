package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostQueueTest {

  private static HostQueue<String> host() {
    return new HostQueue<>(
        "http://a.example", new OriginPoliteness(FetchOptions.defaults(1000, true), 60_000));
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

    host.robots(new crawlercommons.robots.SimpleRobotRules(), 1000);

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
}
