package dev.crawler.fetcher.domain;

import java.time.Instant;
import java.util.List;
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
 * @param rawBody the body as received, before content decoding and without the chunked framing;
 *     empty when it is byte for byte the decoded body (no content coding)
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
    Optional<byte[]> rawBody) {

  public Exchange {
    requestHeaders = List.copyOf(requestHeaders);
    responseHeaders = List.copyOf(responseHeaders);
  }

  /** A header field: its name as written, its value. */
  public record Header(String name, String value) {}
}
