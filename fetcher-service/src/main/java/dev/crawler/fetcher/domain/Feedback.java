package dev.crawler.fetcher.domain;

import dev.crawler.common.http.HttpDate;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one request says about its origin's health, for politeness (rate limits, transient errors,
 * patience): one pure function of the attempt.
 *
 * @param kind what kind of answer it was
 * @param retryAfterMillis how long the server asked to be left alone (a {@code Retry-After}
 *     header), when it asked
 */
public record Feedback(Kind kind, OptionalLong retryAfterMillis) {

  /** The kinds of answer politeness tells apart. */
  public enum Kind {
    /** The server answered (any status but 5xx and rate limits, including 4xx). */
    ANSWERED,
    /** 429, or 503 with Retry-After: slow down. */
    RATE_LIMITED,
    /** A 5xx: transient once, persistent when repeated. */
    SERVER_ERROR,
    /** No response in time: transient once, persistent when repeated. */
    TIMEOUT,
    /** The response broke off (truncated body, reset): transient once, persistent when repeated. */
    BROKEN,
    /** No connection: refused, unreachable, unknown host. Looks persistent at once. */
    UNREACHABLE,
    /** The server does not speak HTTP (it answers gibberish). Looks persistent at once. */
    PROTOCOL_ERROR
  }

  /** Whether this kind of answer lowers the origin's patience even the first time. */
  public boolean isPersistentAtOnce() {
    return kind == Kind.UNREACHABLE || kind == Kind.PROTOCOL_ERROR;
  }

  /** Whether this is a failure of the origin (neither an answer nor a rate limit). */
  public boolean isFailure() {
    return kind != Kind.ANSWERED && kind != Kind.RATE_LIMITED;
  }

  /** The feedback of an attempt that ended at {@code now}. */
  public static Feedback of(FetchAttempt attempt, Instant now) {
    if (attempt instanceof FetchAttempt.Failure failure) {
      Kind kind =
          switch (failure.kind()) {
            case CONNECT_FAILED -> Kind.UNREACHABLE;
            case TIMEOUT -> Kind.TIMEOUT;
            case BROKEN_RESPONSE -> Kind.BROKEN;
            case PROTOCOL_ERROR -> Kind.PROTOCOL_ERROR;
            case TOO_LARGE, REJECTED_METADATA ->
                Kind.ANSWERED; // the server answered; we did not want the body
            case ADDRESS_DENIED -> Kind.ANSWERED; // nothing was sent: the origin did no wrong
            case BUDGET_SPENT -> Kind.ANSWERED; // the fetcher's own load, not the origin's
            case ACCESS_FAILED -> Kind.ANSWERED; // the crawl's configuration, not the origin
            // the page's scripts or the browser, not the origin's answers
            case RENDER_TIMEOUT, RENDER_FAILED -> Kind.ANSWERED;
          };
      return new Feedback(kind, OptionalLong.empty());
    }
    FetchAttempt.Response response = (FetchAttempt.Response) attempt;
    int status = response.status();
    if (isRateLimit(response)) {
      // an unreadable Retry-After asks for back-off all the same: the delay doubles
      OptionalLong retryAfter =
          response
              .header("Retry-After")
              .map(value -> retryAfterMillis(value, now))
              .orElse(OptionalLong.empty());
      return new Feedback(Kind.RATE_LIMITED, retryAfter);
    }
    if (status >= 500) {
      return new Feedback(Kind.SERVER_ERROR, OptionalLong.empty());
    }
    return new Feedback(Kind.ANSWERED, OptionalLong.empty());
  }

  /**
   * Whether an answer is a rate limit: 429, or 503 with a {@code Retry-After} header, readable or
   * not. The one rule the fetch's outcome ({@link FetchVerdict}) and the origin's politeness (this
   * feedback) both follow.
   */
  public static boolean isRateLimit(FetchAttempt.Response response) {
    return response.status() == 429
        || (response.status() == 503 && response.header("Retry-After").isPresent());
  }

  /**
   * A {@code Retry-After} value (RFC 9110 section 10.2.3) in milliseconds from {@code now}:
   * delay-seconds or an HTTP-date; empty when it is neither. A date in the past is 0.
   */
  public static OptionalLong retryAfterMillis(String value, Instant now) {
    String text = value.strip();
    if (text.matches("\\d{1,9}")) {
      return OptionalLong.of(Long.parseLong(text) * 1000);
    }
    Optional<Instant> date = HttpDate.parse(text);
    return date.map(at -> OptionalLong.of(Math.max(0, at.toEpochMilli() - now.toEpochMilli())))
        .orElse(OptionalLong.empty());
  }
}
