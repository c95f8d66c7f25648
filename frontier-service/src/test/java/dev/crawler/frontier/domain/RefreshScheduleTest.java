package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.Outcome;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RefreshScheduleTest {

  @ParameterizedTest(
      name = "interval {0}, adaptive {1}, {2} with current {3} and changefreq {4} -> {5}")
  @CsvSource(
      nullValues = "-",
      value = {
        // interval, adaptive, outcome, current, changefreq, next (- for none)
        "0,    false, COMMITTED,  0,    -,       -",
        "60,   false, COMMITTED,  0,    -,       60",
        "60,   false, UNMODIFIED, 60,   -,       60",
        "60,   false, COMMITTED,  0,    daily,   1440",
        "60,   false, COMMITTED,  0,    weekly,  10080",
        "60,   false, COMMITTED,  0,    never,   -",
        "60,   false, COMMITTED,  0,    someday, 60",
        "60,   false, NOT_FOUND,  60,   -,       30",
        "60,   false, NETWORK_ERROR, 60, -,      30",
        "60,   true,  COMMITTED,  0,    -,       60",
        "60,   true,  COMMITTED,  240,  -,       120",
        "60,   true,  COMMITTED,  100,  -,       60",
        "60,   true,  UNMODIFIED, 240,  -,       480",
        "60,   true,  UNMODIFIED, 1000, -,       1440",
        "60,   true,  NOINDEX,    240,  -,       240",
      })
  void decidesTheNextInterval(
      long interval,
      boolean adaptive,
      Outcome outcome,
      long current,
      String changeFrequency,
      Long next) {
    RefreshSchedule schedule = new RefreshSchedule(interval, adaptive, 60, 1440, 30);

    assertThat(schedule.next(outcome, current, changeFrequency))
        .isEqualTo(next == null ? OptionalLong.empty() : OptionalLong.of(next));
  }
}
