package dev.crawler.fetcher.domain;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How one HTTP request ended: a response, or a failure before a complete response. */
public sealed interface FetchAttempt {

  /** How long the request took, from start to the last byte or the failure, in milliseconds. */
  long durationMillis();

  /**
   * The exchanges as sent and received, in order, when the fetcher records them; empty otherwise.
   */
  List<Exchange> exchanges();

  /**
   * A complete response.
   *
   * @param headers names as received; a repeated header's values joined with ", "
   * @param body the content-decoded body, at most the size limit
   * @param contentType the media type without parameters, lower-case, when given
   * @param charset the charset parameter of the Content-Type, when given
   * @param redirectChain the URLs redirected through before the URL that gave this response, in
   *     order, starting with the requested one; empty when no redirect was followed
   * @param url the URL that gave this response: the requested one, or the last redirect's target
   * @param exchanges the exchanges as sent and received, the redirects followed first and this
   *     response's last, when the fetcher records them; empty otherwise
   */
  record Response(
      int status,
      Map<String, String> headers,
      byte[] body,
      Optional<String> contentType,
      Optional<String> charset,
      long durationMillis,
      List<String> redirectChain,
      String url,
      List<Exchange> exchanges,
      boolean rendered)
      implements FetchAttempt {

    public Response {
      redirectChain = List.copyOf(redirectChain);
      exchanges = List.copyOf(exchanges);
    }

    /** A response fetched over HTTP, with its exchanges as recorded. */
    public Response(
        int status,
        Map<String, String> headers,
        byte[] body,
        Optional<String> contentType,
        Optional<String> charset,
        long durationMillis,
        List<String> redirectChain,
        String url,
        List<Exchange> exchanges) {
      this(
          status,
          headers,
          body,
          contentType,
          charset,
          durationMillis,
          redirectChain,
          url,
          exchanges,
          false);
    }

    /** A response without its exchanges recorded. */
    public Response(
        int status,
        Map<String, String> headers,
        byte[] body,
        Optional<String> contentType,
        Optional<String> charset,
        long durationMillis,
        List<String> redirectChain,
        String url) {
      this(
          status,
          headers,
          body,
          contentType,
          charset,
          durationMillis,
          redirectChain,
          url,
          List.of());
    }

    /** A response to a request that followed no redirect; {@code url} unknown (empty). */
    public Response(
        int status,
        Map<String, String> headers,
        byte[] body,
        Optional<String> contentType,
        Optional<String> charset,
        long durationMillis) {
      this(status, headers, body, contentType, charset, durationMillis, List.of(), "");
    }

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

  /**
   * No complete response; {@code detail} says what happened.
   *
   * @param exchanges when the fetcher records them, the exchanges made: the redirects followed
   *     first, then the one that failed when its response had begun (its body as far as it was
   *     read, {@link Exchange#truncated() marked} when it is not whole); empty otherwise
   */
  record Failure(FailureKind kind, String detail, long durationMillis, List<Exchange> exchanges)
      implements FetchAttempt {

    public Failure {
      exchanges = List.copyOf(exchanges);
    }

    /** A failure without exchanges recorded. */
    public Failure(FailureKind kind, String detail, long durationMillis) {
      this(kind, detail, durationMillis, List.of());
    }
  }

  /** Why a request got no complete response. */
  enum FailureKind {
    /** DNS, connection refused, unreachable. */
    CONNECT_FAILED,
    /** No complete response within the timeout. */
    TIMEOUT,
    /** The response started but could not be read to its end (truncated, reset). */
    BROKEN_RESPONSE,
    /** The server's answer is not HTTP. */
    PROTOCOL_ERROR,
    /** The body is larger than the limit (before or after decoding). */
    TOO_LARGE,
    /** The response's headers failed the metadata filters (type, length): its body was not read. */
    REJECTED_METADATA,
    /**
     * The host's address is one the fetcher may not connect to ({@link AddressPolicy}): nothing is
     * sent to it.
     */
    ADDRESS_DENIED,
    /**
     * The fetcher holds as many body bytes as its budget allows ({@link BodyBudget}): the request
     * was given up, to be made again later.
     */
    BUDGET_SPENT,
    /**
     * The site's access could not be set up (a secret reference unresolved, credentials refused
     * over plain http, the login refused): nothing of the page was requested.
     */
    ACCESS_FAILED,
    /**
     * A page loaded in a browser did not settle, or its scripts did not yield, within the bound.
     */
    RENDER_TIMEOUT,
    /** The browser could not render the page: its tab crashed, the browser failed or is gone. */
    RENDER_FAILED
  }
}
