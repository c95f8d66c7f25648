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
}
