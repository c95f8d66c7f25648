package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.Outcome;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.schemas.options.RequestOptions.Head;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
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
  void mapsAStatusToAnOutcome(
      int status, String location, String retryAfter, String outcome, String detail) {
    Map<String, String> headers = new HashMap<>();
    if (location != null) {
      headers.put("location", location);
    }
    if (retryAfter != null) {
      headers.put("Retry-After", retryAfter);
    }
    FetchVerdict verdict =
        FetchVerdict.of(
            URL,
            new FetchAttempt.Response(
                status, headers, new byte[0], Optional.empty(), Optional.empty(), 5));

    assertThat(verdict.outcome().map(Enum::name)).isEqualTo(Optional.ofNullable(outcome));
    assertThat(verdict.detail()).isEqualTo(Optional.ofNullable(detail));
    assertThat(verdict.isFetched()).isEqualTo(outcome == null);
    assertThat(verdict.redirectTarget().isPresent()).isEqualTo("REDIRECT".equals(outcome));
  }

  @Test
  void recognisesARedirectBackIntoTheFollowedChainAsALoop() {
    FetchAttempt.Response response =
        new FetchAttempt.Response(
            302,
            Map.of("Location", "/a"),
            new byte[0],
            Optional.empty(),
            Optional.empty(),
            5,
            List.of("http://a.example/a"),
            "http://a.example/b");

    FetchVerdict verdict = FetchVerdict.of("http://a.example/a", response);

    assertThat(verdict.outcome()).contains(Outcome.REDIRECT);
    assertThat(verdict.detail()).contains("302 http://a.example/a (redirect loop)");
    assertThat(verdict.redirectTarget()).as("a loop's target is not discovered again").isEmpty();
  }

  @Test
  void resolvesTheLocationOfAFollowedRedirectAgainstTheUrlThatAnswered() {
    FetchAttempt.Response response =
        new FetchAttempt.Response(
            301,
            Map.of("Location", "next"),
            new byte[0],
            Optional.empty(),
            Optional.empty(),
            5,
            List.of("http://a.example/a"),
            "http://b.example/x/y");

    assertThat(FetchVerdict.of("http://a.example/a", response).redirectTarget())
        .contains("http://b.example/x/next");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CONNECT_FAILED  | Connection refused | NETWORK_ERROR | connect failed: Connection refused",
        "TIMEOUT         | Total timeout      | NETWORK_ERROR | timeout: Total timeout",
        "BROKEN_RESPONSE | EOF                | NETWORK_ERROR | broken response: EOF",
        "TOO_LARGE       | over 10 bytes      | TOO_LARGE     | too large: over 10 bytes",
        "PROTOCOL_ERROR  | bad response       | NETWORK_ERROR | protocol error: bad response",
        "REJECTED_METADATA | Content-Type application/pdf | FILTERED | METADATA: Content-Type application/pdf",
      })
  void mapsAFailureToAnOutcome(FailureKind kind, String message, String outcome, String detail) {
    FetchVerdict verdict = FetchVerdict.of(URL, new FetchAttempt.Failure(kind, message, 5));

    assertThat(verdict.outcome().orElseThrow().name()).isEqualTo(outcome);
    assertThat(verdict.detail()).contains(detail);
  }

  @ParameterizedTest(name = "HEAD answered {0}, mode {1} -> GET follows: {2}")
  @CsvSource({
    "200,               OPTIONAL, true",
    "200,               REQUIRED, true",
    "405,               OPTIONAL, true",
    "405,               REQUIRED, false",
    "TIMEOUT,           OPTIONAL, true",
    "TIMEOUT,           REQUIRED, false",
    "REJECTED_METADATA, OPTIONAL, false",
    "REJECTED_METADATA, REQUIRED, false",
  })
  void goesOnToTheGetAfterAHeadAsTheModeSays(String answer, Head mode, boolean goesOn) {
    FetchAttempt head =
        Character.isDigit(answer.charAt(0))
            ? new FetchAttempt.Response(
                Integer.parseInt(answer),
                Map.of(),
                new byte[0],
                Optional.empty(),
                Optional.empty(),
                1,
                List.of(),
                URL)
            : new FetchAttempt.Failure(FailureKind.valueOf(answer), answer, 1);

    assertThat(FetchVerdict.goesOnToGet(head, mode)).isEqualTo(goesOn);
  }
}
