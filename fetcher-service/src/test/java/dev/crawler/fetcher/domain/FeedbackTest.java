package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeedbackTest {

  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  static Feedback answered() {
    return new Feedback(Feedback.Kind.ANSWERED, OptionalLong.empty());
  }

  static Feedback of(Feedback.Kind kind) {
    return new Feedback(kind, OptionalLong.empty());
  }

  @ParameterizedTest(name = "{0} Retry-After={1} -> {2} {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "200 |                               | ANSWERED       |",
        "304 |                               | ANSWERED       |",
        "404 |                               | ANSWERED       |",
        "429 |                               | RATE_LIMITED   |",
        "429 | 7                             | RATE_LIMITED   | 7000",
        "429 | Mon, 23 Nov 2026 10:01:00 GMT | RATE_LIMITED   | 60000",
        "429 | Mon, 23 Nov 2026 09:00:00 GMT | RATE_LIMITED   | 0",
        "429 | soon                          | RATE_LIMITED   |",
        "503 | 30                            | RATE_LIMITED   | 30000",
        "503 |                               | SERVER_ERROR   |",
        "503 | soon                          | RATE_LIMITED   |",
        "500 |                               | SERVER_ERROR   |",
      })
  void readsAResponse(int status, String retryAfter, Feedback.Kind kind, Long retryAfterMillis) {
    Map<String, String> headers = new HashMap<>();
    if (retryAfter != null) {
      headers.put("Retry-After", retryAfter);
    }
    Feedback feedback =
        Feedback.of(
            new FetchAttempt.Response(
                status, headers, new byte[0], Optional.empty(), Optional.empty(), 1),
            NOW);

    assertThat(feedback.kind()).isEqualTo(kind);
    assertThat(feedback.retryAfterMillis())
        .isEqualTo(
            retryAfterMillis == null ? OptionalLong.empty() : OptionalLong.of(retryAfterMillis));
  }

  @ParameterizedTest(name = "{0} -> {1}, persistent at once {2}")
  @CsvSource({
    "CONNECT_FAILED,    UNREACHABLE,    true",
    "PROTOCOL_ERROR,    PROTOCOL_ERROR, true",
    "TIMEOUT,           TIMEOUT,        false",
    "BROKEN_RESPONSE,   BROKEN,         false",
    "TOO_LARGE,         ANSWERED,       false",
    "REJECTED_METADATA, ANSWERED,       false",
  })
  void readsAFailure(FailureKind failure, Feedback.Kind kind, boolean isPersistentAtOnce) {
    Feedback feedback = Feedback.of(new FetchAttempt.Failure(failure, "x", 1), NOW);

    assertThat(feedback.kind()).isEqualTo(kind);
    assertThat(feedback.isPersistentAtOnce()).isEqualTo(isPersistentAtOnce);
  }

  @Test
  void aRateLimitIsNoFailure() {
    assertThat(of(Feedback.Kind.RATE_LIMITED).isFailure()).isFalse();
    assertThat(answered().isFailure()).isFalse();
    assertThat(of(Feedback.Kind.TIMEOUT).isFailure()).isTrue();
  }
}
