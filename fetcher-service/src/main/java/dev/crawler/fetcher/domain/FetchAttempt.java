package dev.crawler.fetcher.domain;

import java.util.Map;
import java.util.Optional;

/** How one HTTP request ended: a response, or a failure before a complete response. */
public sealed interface FetchAttempt {

  /** How long the request took, from start to the last byte or the failure, in milliseconds. */
  long durationMillis();

  /**
   * A complete response.
   *
   * @param headers names as received; a repeated header's values joined with ", "
   * @param body the content-decoded body, at most the size limit
   * @param contentType the media type without parameters, lower-case, when given
   * @param charset the charset parameter of the Content-Type, when given
   */
  record Response(int status, Map<String, String> headers, byte[] body, Optional<String> contentType, Optional<String> charset, long durationMillis)
      implements FetchAttempt {

    /** A header's value by case-insensitive name. */
    public Optional<String> header(String name) {
      for (Map.Entry<String, String> header : headers.entrySet()) {
        if (header.getKey().equalsIgnoreCase(name)) {
          return Optional.of(header.getValue());
        }
      }
      return Optional.empty();
    }
  }

  /** No complete response; {@code detail} says what happened. */
  record Failure(FailureKind kind, String detail, long durationMillis) implements FetchAttempt {}

  /** Why a request got no complete response. */
  enum FailureKind {
    /** DNS, connection refused or reset before a response. */
    CONNECT_FAILED,
    /** No complete response within the timeout. */
    TIMEOUT,
    /** The response started but could not be read to its end. */
    BROKEN_RESPONSE,
    /** The body is larger than the limit. */
    TOO_LARGE
  }
}
