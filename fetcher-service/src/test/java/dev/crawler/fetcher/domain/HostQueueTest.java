package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostQueueTest {

  @Test
  void startsTheNextRequestNoSoonerThanTheDelayAfterTheLastOneEnded() {
    HostQueue<String> host = new HostQueue<>("http://a.example");
    host.add("one");
    host.add("two");

    assertThat(host.isReady(0)).isTrue();
    assertThat(host.poll()).contains("one");
    host.started(1000);
    assertThat(host.isReady(5000)).as("busy: one request at a time").isFalse();
    host.ended(1500);
    assertThat(host.isReady(2499)).isFalse();
    assertThat(host.nextStartAt()).isEqualTo(2500);
    assertThat(host.isReady(2500)).isTrue();
    assertThat(host.poll()).contains("two");
    assertThat(host.hasWaiting()).isFalse();
  }

  @Test
  void needsRobotsUntilFetchedAndAgainWhenExpired() {
    HostQueue<String> host = new HostQueue<>("http://a.example");
    assertThat(host.needsRobots(0)).isTrue();

    host.robots(new crawlercommons.robots.SimpleRobotRules(), 1000);

    assertThat(host.needsRobots(999)).isFalse();
    assertThat(host.needsRobots(1000)).isTrue();
  }

  @Test
  void dropsTheWaitingRequestsOfARevokedPartition() {
    HostQueue<String> host = new HostQueue<>("http://a.example");
    host.add("p0-a");
    host.add("p1-b");
    host.add("p0-c");

    assertThat(host.removeIf(request -> request.startsWith("p0"))).isEqualTo(2);
    assertThat(host.poll()).contains("p1-b");
  }
}
