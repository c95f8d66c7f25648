package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.schemas.options.RequestOptions.Head;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchOptionsTest {

  private static final FetchOptions DEFAULTS = FetchOptions.defaults(1000, true);

  @Test
  void readsTheOptionsARequestCarries() {
    FetchOptions options =
        DEFAULTS.with(
            Map.of(
                "delay-ms", "250",
                "max-connections-per-origin", "3",
                "max-crawl-delay-ms", "10000",
                "patience", "2",
                "pause-ms", "5000",
                "obey-robots-txt", "false",
                "redirects", "follow 3",
                "head", "required",
                "content-types", "text/html,text/*",
                "max-content-length", "4096"));

    assertThat(options)
        .isEqualTo(
            new FetchOptions(
                250,
                3,
                10_000,
                600_000,
                2,
                5000,
                false,
                3,
                Head.REQUIRED,
                List.of("text/html", "text/*"),
                4096));
  }

  @Test
  void keepsTheDefaultForAnUnreadableValue() {
    FetchOptions options =
        DEFAULTS.with(
            Map.of(
                "delay-ms",
                "soon",
                "max-connections-per-origin",
                "0",
                "head",
                "sometimes",
                "redirects",
                "follow many"));

    assertThat(options).isEqualTo(DEFAULTS);
  }

  @Test
  void neverObeysRobotsWhenTheServiceIsToldNotTo() {
    assertThat(
            FetchOptions.defaults(0, false).with(Map.of("obey-robots-txt", "true")).obeysRobots())
        .isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"record, 0", "follow, 5", "follow 2, 2", "follow 50, 10"})
  void readsTheRedirectsOption(String value, int maxRedirects) {
    assertThat(DEFAULTS.with(Map.of("redirects", value)).maxRedirects()).isEqualTo(maxRedirects);
  }

  @Test
  void capsTheConnectionsPerOrigin() {
    assertThat(DEFAULTS.with(Map.of("max-connections-per-origin", "1000")).maxConnections())
        .isEqualTo(FetchOptions.MAX_CONNECTIONS_LIMIT);
  }

  @ParameterizedTest(name = "types [{0}] max {1}: {2} of {3} bytes -> {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        "                     | -1   | application/pdf | 99999 | true",
        "text/html            | -1   | text/html       | -1    | true",
        "text/html            | -1   | application/pdf | -1    | false",
        "text/*               | -1   | text/plain      | -1    | true",
        "text/*,application/xml | -1 | application/xml | -1    | true",
        "text/html            | -1   |                 | -1    | true",
        "                     | 1000 | text/html       | 1000  | true",
        "                     | 1000 | text/html       | 1001  | false",
        "                     | 1000 | text/html       | -1    | true",
      })
  void filtersOnMetadata(
      String types, long maxLength, String mediaType, long length, boolean isAccepted) {
    FetchOptions options =
        DEFAULTS.with(
            Map.of(
                "content-types",
                types == null ? "" : types,
                "max-content-length",
                Long.toString(maxLength)));

    assertThat(options.isAcceptedMetadata(mediaType, length)).isEqualTo(isAccepted);
  }
}
