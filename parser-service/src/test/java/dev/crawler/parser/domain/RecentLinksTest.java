package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentLinksTest {

  @Test
  void sendsALinkOnceWhileItIsRemembered() {
    RecentLinks links = new RecentLinks(2);

    assertThat(links.isNew("a")).isTrue();
    assertThat(links.isNew("a")).isFalse();
    assertThat(links.isNew("b")).isTrue();
    assertThat(links.isNew("a")).isFalse();
    assertThat(links.isNew("c")).as("b, least recently seen, is forgotten").isTrue();
    assertThat(links.isNew("b")).isTrue();
  }

  @Test
  void forgetsEverythingWhenCleared() {
    RecentLinks links = new RecentLinks(10);
    links.isNew("a");

    links.clear();

    assertThat(links.isNew("a")).isTrue();
  }

  @Test
  void remembersNothingWithNoCapacity() {
    RecentLinks links = new RecentLinks(0);

    assertThat(links.isNew("a")).isTrue();
    assertThat(links.isNew("a")).isTrue();
  }

  @Test
  void sendsALinkAgainOnceItsMaximumAgeHasPassed() {
    RecentLinks links = new RecentLinks(10, 1000);

    assertThat(links.isNew("http://a.example/x", 0)).isTrue();
    assertThat(links.isNew("http://a.example/x", 999)).isFalse();
    assertThat(links.isNew("http://a.example/x", 1000))
        .as("a later recrawl sees every link again")
        .isTrue();
    assertThat(links.isNew("http://a.example/x", 1500)).isFalse();
  }
}
