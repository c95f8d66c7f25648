package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How soon the crawl looks again once the frontier has nothing left to release. */
class CrawlTest {

  @Test
  void aQuickCheckIsFollowedAfterTheConfirmInterval() {
    assertThat(Crawl.confirmInterval(Duration.ofMillis(1))).isEqualTo(Crawl.CONFIRM_INTERVAL);
    assertThat(Crawl.confirmInterval(Duration.ofMillis(5))).isEqualTo(Crawl.CONFIRM_INTERVAL);
  }

  @Test
  void aSlowCheckTakesAtMostATenthOfTheThread() {
    assertThat(Crawl.confirmInterval(Duration.ofMillis(12))).isEqualTo(Duration.ofMillis(120));
  }

  @Test
  void theChecksComeAtLeastAsOftenAsWhileTheCrawlIsBusy() {
    assertThat(Crawl.confirmInterval(Duration.ofMillis(40))).isEqualTo(Crawl.CHECK_INTERVAL);
    assertThat(Crawl.confirmInterval(Duration.ofSeconds(2))).isEqualTo(Crawl.CHECK_INTERVAL);
  }
}
