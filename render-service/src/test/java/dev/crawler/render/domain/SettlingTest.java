package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.render.domain.Settling.Observation;
import dev.crawler.render.domain.Settling.Verdict;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettlingTest {

  private final Settling settling = new Settling(Duration.ofMillis(500), Duration.ofSeconds(10));

  @ParameterizedTest(name = "{6}")
  @CsvSource({
    // elapsed, main loaded, in flight, since network, since DOM, complete, expected
    "1000,  true,  0, 600,  600,  true,  QUIET",
    "1000,  true,  0, 500,  500,  true,  QUIET",
    "1000,  true,  1, 600,  600,  true,  WAIT",
    "1000,  true,  0, 499,  600,  true,  WAIT",
    "1000,  true,  0, 600,  300,  true,  WAIT",
    "1000,  true,  0, 600,  600,  false, WAIT",
    "1000,  false, 0, 600,  600,  true,  WAIT",
    "10000, true,  2, 0,    0,    false, OUT_OF_TIME",
    "10000, true,  0, 9000, 9000, true,  QUIET",
    "12000, false, 0, 0,    0,    false, OUT_OF_TIME",
  })
  void judgesAnObservation(
      long elapsed,
      boolean mainLoaded,
      int inFlight,
      long sinceNetwork,
      long sinceDom,
      boolean complete,
      Verdict expected) {
    Observation seen =
        new Observation(elapsed, mainLoaded, inFlight, sinceNetwork, sinceDom, complete);

    assertThat(settling.judge(seen)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "false | 0 | 900 | 900 | false | main document not loaded",
        "true  | 0 | 900 | 900 | false | document still loading",
        "true  | 3 | 0   | 900 | true  | 3 requests in flight",
        "true  | 0 | 120 | 900 | true  | a request answered 120 ms ago",
        "true  | 2 | 0   | 40  | true  | 2 requests in flight; DOM changed 40 ms ago",
        "true  | 0 | 900 | 900 | true  | ''",
      })
  void saysWhatIsBusy(
      boolean mainLoaded,
      int inFlight,
      long sinceNetwork,
      long sinceDom,
      boolean complete,
      String expected) {
    Observation seen =
        new Observation(10_000, mainLoaded, inFlight, sinceNetwork, sinceDom, complete);

    assertThat(settling.busyDetail(seen)).isEqualTo(expected);
  }
}
