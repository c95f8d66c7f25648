package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchVerdictTest {

  private static final String URL = "http://a.example/dir/page";

  @ParameterizedTest(name = "{0} Location={1} Retry-After={2} -> {3} {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        "200 |                    |     |               |",
        "204 |                    |     |               |",
        "304 |                    |     | UNMODIFIED    | 304",
        "301 | /new               |     | REDIRECT      | 301 http://a.example/new",
        "302 | other#frag         |     | REDIRECT      | 302 http://a.example/dir/other",
        "307 | https://B.example/ |     | REDIRECT      | 307 https://b.example/",
        "301 |                    |     | BAD_STATUS    | 301 without a usable Location",
        "302 | mailto:x@y         |     | BAD_STATUS    | 302 without a usable Location",
        "404 |                    |     | NOT_FOUND     | 404",
        "410 |                    |     | GONE          | 410",
        "429 |                    |     | RATE_LIMITED  | 429",
        "429 |                    | 120 | RATE_LIMITED  | 429 retry after 120",
        "503 |                    | 30  | RATE_LIMITED  | 503 retry after 30",
        "503 |                    |     | BAD_STATUS    | 503",
        "500 |                    |     | BAD_STATUS    | 500",
        "403 |                    |     | BAD_STATUS    | 403",
        "199 |                    |     | BAD_STATUS    | 199",
      })
  void mapsAStatusToAnOutcome(int status, String location, String retryAfter, String outcome, String detail) {
    Map<String, String> headers = new HashMap<>();
    if (location != null) {
      headers.put("location", location);
    }
    if (retryAfter != null) {
      headers.put("Retry-After", retryAfter);
    }
    FetchVerdict verdict = FetchVerdict.of(URL, new FetchAttempt.Response(status, headers, new byte[0], Optional.empty(), Optional.empty(), 5));

    assertThat(verdict.outcome().map(Enum::name)).isEqualTo(Optional.ofNullable(outcome));
    assertThat(verdict.detail()).isEqualTo(Optional.ofNullable(detail));
    assertThat(verdict.isFetched()).isEqualTo(outcome == null);
    assertThat(verdict.redirectTarget().isPresent()).isEqualTo("REDIRECT".equals(outcome));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CONNECT_FAILED  | Connection refused | NETWORK_ERROR | connect failed: Connection refused",
        "TIMEOUT         | Total timeout      | NETWORK_ERROR | timeout: Total timeout",
        "BROKEN_RESPONSE | EOF                | NETWORK_ERROR | broken response: EOF",
        "TOO_LARGE       | over 10 bytes      | TOO_LARGE     | too large: over 10 bytes",
      })
  void mapsAFailureToAnOutcome(FailureKind kind, String message, String outcome, String detail) {
    FetchVerdict verdict = FetchVerdict.of(URL, new FetchAttempt.Failure(kind, message, 5));

    assertThat(verdict.outcome().orElseThrow().name()).isEqualTo(outcome);
    assertThat(verdict.detail()).contains(detail);
  }
}
