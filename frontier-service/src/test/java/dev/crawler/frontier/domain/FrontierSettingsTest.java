package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.Outcome;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FrontierSettingsTest {

  @ParameterizedTest(name = "delay {0} ms, configured {1} -> window {2}")
  @CsvSource({
    "1000, 0, 2",
    "5000, 0, 2",
    "500,  0, 4",
    "100,  0, 20",
    "30,   0, 67",
    "10,   0, 200",
    "5,    0, 400",
    "2,    0, 1000",
    "0,    0, 1024",
    "0,    5, 5",
    "1000, 8, 8",
  })
  void windowFollowsTheDelayUnlessConfigured(long delay, int configured, int expected) {
    assertThat(settings(delay, configured, 3).window()).isEqualTo(expected);
  }

  @ParameterizedTest(name = "global delay {0} ms, the origin's reported delay {1} ms -> window {2}")
  @CsvSource({
    "0,   -1,    1024",
    "0,   60000, 2",
    "0,   500,   4",
    "1000, 0,    1024",
  })
  void anOriginsReportedDelaySizesItsWindow(long delay, long originDelay, int expected) {
    assertThat(settings(delay, 0, 3).window(originDelay)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} on attempt {1} of {2} -> retried {3}")
  @CsvSource({
    "NETWORK_ERROR, 1, 3, true",
    "NETWORK_ERROR, 2, 3, true",
    "NETWORK_ERROR, 3, 3, false",
    "RATE_LIMITED,  1, 3, true",
    "RATE_LIMITED,  1, 1, false",
    "NOT_FOUND,     1, 3, false",
    "BAD_STATUS,    1, 3, false",
    "COMMITTED,     1, 3, false",
    "REDIRECT,      1, 3, false",
  })
  void retriesOnlyTransientFailuresUntilMaxAttempts(
      Outcome outcome, int attempt, int maxAttempts, boolean retried) {
    assertThat(settings(1000, 0, maxAttempts).isRetried(outcome, attempt)).isEqualTo(retried);
  }

  private static FrontierSettings settings(long delay, int window, int maxAttempts) {
    CrawlConfig crawl = CrawlConfig.DEFAULTS.withGlobal(Map.of(CrawlOption.DELAY_MS, delay));
    return new FrontierSettings(crawl, List.of(), 0, window, Duration.ofMinutes(10), maxAttempts);
  }
}
