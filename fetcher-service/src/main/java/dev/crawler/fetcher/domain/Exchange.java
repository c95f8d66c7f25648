package dev.crawler.fetcher.domain;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One HTTP request and its response as they were sent and received, for the archive: what a WARC
 * request and response record hold. Recorded only when the fetcher records exchanges.
 *
 * @param url the URL requested
 * @param method GET or HEAD
 * @param httpVersion {@code HTTP/1.1}, {@code HTTP/2.0}, …
 * @param peerAddress the IP address the request went to
 * @param startedAt when the request was sent
 * @param requestHeaders the request's fields as sent, in order
 * @param status the response's status
 * @param reason the status line's reason phrase (empty over HTTP/2)
 * @param responseHeaders the response's fields as received, in order, repeats repeated
 * @param rawBody the body as received, before content decoding and without the chunked framing, at
 *     most the fetcher's size limit; empty when it is byte for byte the decoded body of the
 *     response it belongs to (no content coding)
 * @param truncated why {@code rawBody} is not the whole body; empty when it is
 */
public record Exchange(
    String url,
    String method,
    String httpVersion,
    Optional<String> peerAddress,
    Instant startedAt,
    List<Header> requestHeaders,
    int status,
    String reason,
    List<Header> responseHeaders,
    Optional<byte[]> rawBody,
    Optional<Truncation> truncated) {

  public Exchange {
    requestHeaders = List.copyOf(requestHeaders);
    responseHeaders = List.copyOf(responseHeaders);
  }

  /** An exchange whose body is whole. */
  public Exchange(
      String url,
      String method,
      String httpVersion,
      Optional<String> peerAddress,
      Instant startedAt,
      List<Header> requestHeaders,
      int status,
      String reason,
      List<Header> responseHeaders,
      Optional<byte[]> rawBody) {
    this(
        url,
        method,
        httpVersion,
        peerAddress,
        startedAt,
        requestHeaders,
        status,
        reason,
        responseHeaders,
        rawBody,
        Optional.empty());
  }

  /** The same exchange carrying {@code body} as its body as received. */
  public Exchange withRawBody(byte[] body) {
    return new Exchange(
        url,
        method,
        httpVersion,
        peerAddress,
        startedAt,
        requestHeaders,
        status,
        reason,
        responseHeaders,
        Optional.of(body),
        truncated);
  }

  /** A header field: its name as written, its value. */
  public record Header(String name, String value) {}

  /** Why a recorded body is not whole: the reasons of WARC 1.1's {@code WARC-Truncated}. */
  public enum Truncation {
    /** Cut at the fetcher's size limit. */
    LENGTH,
    /** The request's time ran out. */
    TIME,
    /** The connection broke before the body's end. */
    DISCONNECT,
    /** Another reason: the metadata filters or the body budget stopped the read, … */
    UNSPECIFIED;

    /** The field's value: {@code length}, {@code time}, {@code disconnect}, {@code unspecified}. */
    public String warcName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Why the body of a response whose request failed this way is not whole. */
    public static Truncation of(FetchAttempt.FailureKind failure) {
      return switch (failure) {
        case TOO_LARGE -> LENGTH;
        case TIMEOUT -> TIME;
        case BROKEN_RESPONSE -> DISCONNECT;
        default -> UNSPECIFIED;
      };
    }
  }
}
