package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.streams.StreamTransactions;
import dev.crawler.common.streams.StreamTransactions.Transaction;
import java.util.concurrent.CompletableFuture;
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

  @Test
  void aLinkSentInAnOpenTransactionIsNotSentAgainWithinItButIsByAnotherThread() throws Exception {
    RecentLinks links = new RecentLinks(10);
    Transaction open = StreamTransactions.current();
    assertThat(links.isNew("a", open, 0)).isTrue();

    assertThat(links.isNew("a", open, 1)).as("within its transaction").isFalse();
    assertThat(CompletableFuture.supplyAsync(() -> links.isNew("a", null, 2)).get())
        .as("another thread, while it is open")
        .isTrue();
  }
}
