package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the parser reads a publish date; where it finds one is tested in {@link PageParserTest}. */
class PublishDatesTest {

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource({
    "2019-09-10T12:00:00Z, 2019-09-10T12:00:00Z",
    "2019-09-10T12:00:00+02:00, 2019-09-10T10:00:00Z",
    "2019-09-10T12:00:00, 2019-09-10T12:00:00Z",
    "2019-09-10, 2019-09-10T00:00:00Z",
    "'  2019-09-10T12:00:00.5+00:00 ', 2019-09-10T12:00:00.500Z",
    "soon,",
    "10/09/2019,",
    "'',",
  })
  void readsIso8601DatesAndDateTimes(String text, Instant expected) {
    assertThat(PublishDates.parse(text)).isEqualTo(Optional.ofNullable(expected));
  }
}
