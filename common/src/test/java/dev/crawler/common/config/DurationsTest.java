package dev.crawler.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {

  @ParameterizedTest(name = "{0} is {1} seconds")
  @CsvSource({"30s, 30", "5m, 300", "2h, 7200", "1d, 86400", "' 10 M ', 600"})
  void readsANumberWithAUnit(String text, long seconds) {
    assertThat(Durations.parse(text, Optional.empty())).isEqualTo(Duration.ofSeconds(seconds));
  }

  @Test
  void readsABareNumberInTheGivenUnitOnlyWhenThereIsOne() {
    assertThat(Durations.parse("5", Optional.of(ChronoUnit.MINUTES)))
        .isEqualTo(Duration.ofMinutes(5));
    assertThatThrownBy(() -> Durations.parse("5", Optional.empty()))
        .hasMessage("'5' is not a duration (30s, 5m, 2h, 1d)");
  }

  @ParameterizedTest
  @CsvSource({
    "soon, '''soon'' is not a duration (minutes, or 30s, 5m, 2h, 1d)'",
    "0s, '''0s'' is not more than zero'",
    "5w, '''5w'' is not a duration (minutes, or 30s, 5m, 2h, 1d)'"
  })
  void rejectsWhatIsNotAPositiveDuration(String text, String message) {
    assertThatThrownBy(() -> Durations.parse(text, Optional.of(ChronoUnit.MINUTES)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
