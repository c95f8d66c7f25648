package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.ContentDecoding;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.Exchange.Truncation;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.schemas.Origin;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;

/**
 * The {@link PageFetcher} on Jetty's asynchronous {@link HttpClient}: HTTP/1.1, and HTTP/2 where
 * the server offers it (ALPN over TLS). A fetch has its site's access set up first ({@link
 * SiteGate}), then goes hop by hop: redirects are followed here, not by Jetty, so each hop is
 * recorded and loops are caught, and a request answered as logged out goes once more after a new
 * login. The raw body is read up to the size limit and the request aborted beyond it ({@link
 * BodyCollector}); the content coding (gzip, deflate, br) is then decoded with the same limit
 * ({@link ContentDecoding}). TLS certificates are not verified by default: a crawler must read
 * sites whose certificates are expired or self-signed ({@link HttpClients}).
 */
public final class JettyPageFetcher implements PageFetcher {

  /**
   * The most a response's status line and headers may take, in bytes (HTTP/1.1 and HTTP/2): a
   * server that sends more fails the request (a protocol error) before its body is read. Their time
   * is bounded by the request's timeouts, as the body's is.
   */
  public static final int MAX_RESPONSE_HEADERS_BYTES = 64 * 1024;

  private final HttpClients clients;
  private final SiteGate gate;
  private final long maxBodyBytes;
  private final BodyBudget bodies;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final boolean recordsExchanges;

  /**
   * How a {@link JettyPageFetcher} is made: the User-Agent, then whatever differs from the
   * defaults. Not thread-safe; {@link #build()} starts the client.
   */
  public static final class Builder {
    private final String userAgent;
    private long maxBodyBytes = 10L * 1024 * 1024;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration idleTimeout = Duration.ofSeconds(30);
    private Duration requestTimeout = Duration.ofSeconds(60);
    private int maxConnections = 64;
    private boolean verifyTls;
    private AddressPolicy addresses = AddressPolicy.defaults();
    private BodyBudget bodies = BodyBudget.ofHeap(Runtime.getRuntime().maxMemory());
    private boolean recordsExchanges;
    private Secrets secrets = Secrets.ofEnvironment();
    private Optional<TrustStore> trustStore = Optional.empty();
    private InstantSource clock = InstantSource.system();

    private Builder(String userAgent) {
      this.userAgent = userAgent;
    }

    /**
     * The largest body read, before and after decoding; a longer one fails the attempt as {@link
     * FailureKind#TOO_LARGE}. Default 10 MiB.
     */
    public Builder maxBodyBytes(long bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    /**
     * How long connecting may take, how long a connection may stay silent during a request, and how
     * long a whole request may take, redirects followed included. Default 10 s, 30 s, 60 s.
     */
    public Builder timeouts(Duration connect, Duration idle, Duration request) {
      this.connectTimeout = connect;
      this.idleTimeout = idle;
      this.requestTimeout = request;
      return this;
    }

    /** Connections open at most, over all origins. Default 64. */
    public Builder maxConnections(int connections) {
      this.maxConnections = connections;
      return this;
    }

    /** Whether TLS certificates and host names are verified. Default false. */
    public Builder verifyTls(boolean verify) {
      this.verifyTls = verify;
      return this;
    }

    /**
     * Which addresses may be connected to: every connection is checked on the address it is made to
     * ({@link GuardedAddressResolver}). Default {@link AddressPolicy#defaults()}.
     */
    public Builder addresses(AddressPolicy policy) {
      this.addresses = policy;
      return this;
    }

    /** The bytes the bodies of all requests may hold at once. Default: a share of the heap. */
    public Builder bodies(BodyBudget budget) {
      this.bodies = budget;
      return this;
    }

    /**
     * Whether each response carries its exchanges as sent and received (for the archive): request
     * and response fields, protocol, peer address, the raw body. Default false.
     */
    public Builder recordsExchanges(boolean records) {
      this.recordsExchanges = records;
      return this;
    }

    /** Where the secrets of the sites' access options come from. Default the environment. */
    public Builder secrets(Secrets from) {
      this.secrets = from;
      return this;
    }

    /**
     * The trust store the TLS of requests with credentials is verified against. Default the JDK's.
     */
    public Builder trustStore(Optional<TrustStore> store) {
      this.trustStore = store;
      return this;
    }

    /** The clock cookies expire and login sessions are judged by. Default the system's. */
    public Builder clock(InstantSource source) {
      this.clock = source;
      return this;
    }

    /** The fetcher, its client started. */
    public JettyPageFetcher build() {
      return new JettyPageFetcher(this);
    }
  }

  /** A builder of a fetcher that sends this User-Agent. */
  public static Builder builder(String userAgent) {
    return new Builder(userAgent);
  }

  private JettyPageFetcher(Builder builder) {
    this.recordsExchanges = builder.recordsExchanges;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.bodies = builder.bodies;
    this.requestTimeout = builder.requestTimeout;
    this.idleTimeout = builder.idleTimeout;
    this.clients =
        new HttpClients(
            builder.userAgent,
            builder.connectTimeout,
            builder.idleTimeout,
            builder.maxConnections,
            builder.verifyTls,
            builder.addresses,
            builder.trustStore,
            builder.clock);
    this.gate = new SiteGate(clients, builder.secrets, builder.requestTimeout, builder.clock);
    clients.start();
  }

  @Override
  public CompletableFuture<FetchAttempt> fetch(Call call) {
    CompletableFuture<FetchAttempt> attempt = new CompletableFuture<>();
    long started = System.nanoTime();
    gate.prepare(call)
        .whenComplete(
            (prepared, failure) -> {
              if (failure != null) {
                attempt.complete(
                    new FetchAttempt.Failure(
                        FailureKind.ACCESS_FAILED,
                        Failures.describe(failure),
                        millisSince(started)));
              } else if (prepared instanceof SiteGate.Refused refused) {
                attempt.complete(
                    new FetchAttempt.Failure(
                        refused.kind(), refused.detail(), millisSince(started)));
              } else {
                SiteGate.Ready ready = (SiteGate.Ready) prepared;
                send(
                    call,
                    ready,
                    false,
                    call.url(),
                    new ArrayList<>(),
                    new ArrayList<>(),
                    attempt,
                    started);
              }
            });
    return attempt;
  }

  @Override
  public void forget(String origin) {
    gate.forget(origin);
  }

  @Override
  public int forgetCookies() {
    return gate.forgetAllCookies();
  }

  private void send(
      Call call,
      SiteGate.Ready ready,
      boolean isRetry,
      String url,
      List<String> chain,
      List<Exchange> exchanges,
      CompletableFuture<FetchAttempt> attempt,
      long started) {
    long remaining =
        requestTimeout.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    if (remaining <= 0) {
      attempt.complete(
          new FetchAttempt.Failure(
              FailureKind.TIMEOUT,
              "redirects took longer than " + requestTimeout.toMillis() + " ms",
              millisSince(started)));
      return;
    }
    Request request;
    try {
      boolean isOwnOrigin = chain.isEmpty() || sameOrigin(url, call.url());
      request =
          ready
              .client()
              .newRequest(url)
              .method(call.isHead() ? HttpMethod.HEAD : HttpMethod.GET)
              .followRedirects(false)
              .timeout(remaining, TimeUnit.MILLISECONDS)
              .idleTimeout(idleTimeout.toMillis(), TimeUnit.MILLISECONDS)
              .headers(
                  fields -> {
                    fields.put(HttpHeader.ACCEPT_ENCODING, ContentDecoding.ACCEPTED);
                    call.headers().forEach(fields::put);
                    if (isOwnOrigin) {
                      // the site's headers, credentials among them, go to its origin only
                      ready.headers().forEach(fields::put);
                    }
                  });
    } catch (IllegalArgumentException e) {
      attempt.complete(
          new FetchAttempt.Failure(
              FailureKind.CONNECT_FAILED, "bad URL: " + e.getMessage(), millisSince(started)));
      return;
    }
    request.send(new Hop(call, ready, isRetry, url, chain, exchanges, attempt, started));
  }

  @Override
  public boolean hasRoomForAnotherBody() {
    return bodies.hasRoomFor(maxBodyBytes);
  }

  @Override
  public void close() {
    clients.stop();
  }

  private static boolean sameOrigin(String url, String other) {
    try {
      return Origin.keyOf(url).equals(Origin.keyOf(other));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * One request of a fetch (the first, a redirect's, or the first again after a new login) and what
   * its response makes of the fetch: the attempt, the next hop, or a new login first.
   */
  private final class Hop extends BodyCollector {

    private final SiteGate.Ready ready;
    private final boolean isRetry;
    private final String url;
    private final List<String> chain;
    private final List<Exchange> exchanges;
    private final CompletableFuture<FetchAttempt> attempt;
    private final long started;
    private final long sentAt = System.currentTimeMillis();

    Hop(
        Call call,
        SiteGate.Ready ready,
        boolean isRetry,
        String url,
        List<String> chain,
        List<Exchange> exchanges,
        CompletableFuture<FetchAttempt> attempt,
        long started) {
      super(call, maxBodyBytes, bodies, recordsExchanges);
      this.ready = ready;
      this.isRetry = isRetry;
      this.url = url;
      this.chain = chain;
      this.exchanges = exchanges;
      this.attempt = attempt;
      this.started = started;
    }

    @Override
    void completed(Result result) {
      long millis = millisSince(started);
      if (result.isFailed()) {
        Throwable failure = result.getFailure();
        boolean hasBegun = result.getResponse() != null && result.getResponse().getStatus() > 0;
        FailureKind kind = Failures.kindOf(failure, hasBegun);
        attempt.complete(
            new FetchAttempt.Failure(
                kind,
                Failures.describe(failure),
                millis,
                hasBegun
                    ? recorded(result.getResponse(), body(), Optional.of(Truncation.of(kind)))
                    : exchanges));
        return;
      }
      Response response = result.getResponse();
      int status = response.getStatus();
      if (!isRetry
          && gate.isLoggedOut(
              call, status, Optional.ofNullable(response.getHeaders().get(HttpHeader.LOCATION)))) {
        gate.loginAgain(call, ready)
            .thenAccept(
                failure -> {
                  if (failure.isPresent()) {
                    attempt.complete(
                        new FetchAttempt.Failure(
                            FailureKind.ACCESS_FAILED, failure.get(), millisSince(started)));
                  } else {
                    send(
                        call,
                        ready,
                        true,
                        call.url(),
                        new ArrayList<>(),
                        recorded(response, copyOfBody(), Optional.empty()),
                        attempt,
                        started);
                  }
                });
        return;
      }
      Optional<String> target = Responses.redirectTarget(url, response);
      if (target.isPresent()
          && chain.size() < call.maxRedirects()
          && !target.get().equals(url)
          && !chain.contains(target.get())) {
        List<String> next = new ArrayList<>(chain);
        next.add(url);
        send(
            call,
            ready,
            isRetry,
            target.get(),
            next,
            recorded(response, copyOfBody(), Optional.empty()),
            attempt,
            started);
        return;
      }
      attempt.complete(answered(response, millis));
    }

    /** The attempt a final response makes: its body decoded, its headers redacted. */
    private FetchAttempt answered(Response response, long millis) {
      Map<String, String> headers = Responses.headers(response);
      ContentDecoding.Decoded decoded =
          ContentDecoding.decode(
              response.getHeaders().get(HttpHeader.CONTENT_ENCODING), body(), maxBodyBytes);
      // the body as received is whole when its decoding fails
      if (decoded instanceof ContentDecoding.TooLarge tooLarge) {
        return new FetchAttempt.Failure(
            FailureKind.TOO_LARGE,
            tooLarge.detail(),
            millis,
            recorded(response, body(), Optional.empty()));
      }
      if (decoded instanceof ContentDecoding.Broken broken) {
        return new FetchAttempt.Failure(
            FailureKind.BROKEN_RESPONSE,
            broken.detail(),
            millis,
            recorded(response, body(), Optional.empty()));
      }
      String contentType = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
      byte[] bytes = ((ContentDecoding.Body) decoded).bytes();
      List<Exchange> recorded = exchanges;
      if (recordsExchanges) {
        recorded = new ArrayList<>(exchanges);
        // the body as received, unless it is the decoded one (no content coding): sent once
        recorded.add(
            exchange(
                response,
                isBody(bytes) ? Optional.empty() : Optional.of(copyOfBody()),
                Optional.empty()));
      }
      return new FetchAttempt.Response(
          response.getStatus(),
          headers,
          bytes,
          Responses.mediaType(contentType),
          Responses.charset(contentType),
          millis,
          chain,
          url,
          recorded);
    }

    /**
     * The exchanges of the fetch so far with this hop's, its body as read; none when the fetcher
     * records none.
     */
    private List<Exchange> recorded(
        Response response, byte[] rawBody, Optional<Truncation> truncated) {
      if (!recordsExchanges) {
        return exchanges;
      }
      List<Exchange> recorded = new ArrayList<>(exchanges);
      recorded.add(exchange(response, Optional.of(rawBody), truncated));
      return recorded;
    }

    private Exchange exchange(
        Response response, Optional<byte[]> rawBody, Optional<Truncation> truncated) {
      return Responses.exchange(
          url, response, peerAddress(), sentAt, call.access(), rawBody, truncated);
    }
  }

  private static long millisSince(long started) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
  }
}
