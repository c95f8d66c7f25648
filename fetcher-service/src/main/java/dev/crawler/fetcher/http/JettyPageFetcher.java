package dev.crawler.fetcher.http;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.ContentDecoding;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.schemas.Origin;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.Connection;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The {@link PageFetcher} on Jetty's asynchronous {@link HttpClient}: HTTP/1.1, and HTTP/2 where
 * the server offers it (ALPN over TLS). Redirects are followed here, not by Jetty, so each hop is
 * recorded and loops are caught. The raw body is read up to the size limit and the request aborted
 * beyond it; the content coding (gzip, deflate, br) is then decoded with the same limit ({@link
 * ContentDecoding}). TLS certificates are not verified by default: a crawler must read sites whose
 * certificates are expired or self-signed.
 */
public final class JettyPageFetcher implements PageFetcher {

  /**
   * The most a response's status line and headers may take, in bytes (HTTP/1.1 and HTTP/2): a
   * server that sends more fails the request (a protocol error) before its body is read. Their time
   * is bounded by the request's timeouts, as the body's is.
   */
  public static final int MAX_RESPONSE_HEADERS_BYTES = 64 * 1024;

  private final HttpClient client;
  private final HttpClient verifiedClient;
  private final SiteGate gate;
  private final QueuedThreadPool threads;
  private final ScheduledExecutorScheduler scheduler;
  private final long maxBodyBytes;
  private final BodyBudget bodies;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final boolean recordsExchanges;

  /**
   * @param userAgent the User-Agent header
   * @param maxBodyBytes the largest body read, before and after decoding; a longer one is a {@link
   *     FailureKind#TOO_LARGE} failure
   * @param connectTimeout how long connecting may take
   * @param idleTimeout how long a connection may stay silent during a request
   * @param requestTimeout how long a whole request may take, redirects followed included
   * @param maxConnections connections open at most, over all origins
   * @param verifyTls whether TLS certificates and host names are verified
   * @param addresses which addresses may be connected to: every connection is checked on the
   *     address it is made to ({@link GuardedAddressResolver})
   * @param bodies the bytes the bodies of all requests may hold at once
   * @param recordsExchanges whether each response carries its exchanges as sent and received (for
   *     the archive): request and response fields, protocol, peer address, the raw body
   */
  public JettyPageFetcher(
      String userAgent,
      long maxBodyBytes,
      Duration connectTimeout,
      Duration idleTimeout,
      Duration requestTimeout,
      int maxConnections,
      boolean verifyTls,
      AddressPolicy addresses,
      BodyBudget bodies,
      boolean recordsExchanges) {
    this(
        userAgent,
        maxBodyBytes,
        connectTimeout,
        idleTimeout,
        requestTimeout,
        maxConnections,
        verifyTls,
        addresses,
        bodies,
        recordsExchanges,
        Secrets.ofEnvironment(),
        Optional.empty());
  }

  /**
   * As above, with where the secrets of the sites' access options come from, and the trust store
   * that the TLS of requests with credentials is verified against (the JDK's when empty).
   */
  public JettyPageFetcher(
      String userAgent,
      long maxBodyBytes,
      Duration connectTimeout,
      Duration idleTimeout,
      Duration requestTimeout,
      int maxConnections,
      boolean verifyTls,
      AddressPolicy addresses,
      BodyBudget bodies,
      boolean recordsExchanges,
      Secrets secrets,
      Optional<TrustStore> trustStore) {
    this.recordsExchanges = recordsExchanges;
    this.maxBodyBytes = maxBodyBytes;
    this.bodies = bodies;
    this.requestTimeout = requestTimeout;
    this.idleTimeout = idleTimeout;
    QueuedThreadPool threads =
        new QueuedThreadPool(Math.max(8, Runtime.getRuntime().availableProcessors() * 4), 2);
    threads.setName("fetcher-http");
    threads.setDaemon(true);
    ScheduledExecutorScheduler scheduler =
        new ScheduledExecutorScheduler("fetcher-http-timer", true);
    // started here and stopped in close(), after both clients: the clients share them, so neither
    // may stop them under the other (a started bean is not managed by its container)
    try {
      threads.start();
      scheduler.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTP client's threads", e);
    }
    this.threads = threads;
    this.scheduler = scheduler;
    OriginCookieJars jars = new OriginCookieJars();
    ProxyRoutes[] routes = new ProxyRoutes[1];
    SocketAddressResolver resolver =
        new GuardedAddressResolver(
            new SocketAddressResolver.Async(threads, scheduler, connectTimeout.toMillis()),
            addresses,
            (host, port) -> routes[0] != null && routes[0].isProxy(host, port));
    SslContextFactory.Client tls = new SslContextFactory.Client(!verifyTls);
    if (!verifyTls) {
      tls.setEndpointIdentificationAlgorithm(null);
    }
    this.client =
        HttpClients.newClient(
            tls,
            threads,
            scheduler,
            resolver,
            userAgent,
            connectTimeout,
            idleTimeout,
            maxConnections);
    client.setHttpCookieStore(jars.store(verifyTls));
    if (verifyTls && trustStore.isEmpty()) {
      this.verifiedClient = client;
    } else {
      SslContextFactory.Client verifying = new SslContextFactory.Client(false);
      trustStore.ifPresent(
          store -> {
            verifying.setTrustStorePath(store.path().toString());
            verifying.setTrustStorePassword(store.password());
          });
      this.verifiedClient =
          HttpClients.newClient(
              verifying,
              threads,
              scheduler,
              resolver,
              userAgent,
              connectTimeout,
              idleTimeout,
              maxConnections);
      verifiedClient.setHttpCookieStore(jars.store(true));
    }
    routes[0] =
        verifiedClient == client
            ? new ProxyRoutes(client)
            : new ProxyRoutes(client, verifiedClient);
    this.gate =
        new SiteGate(client, verifiedClient, jars, routes[0], secrets, requestTimeout, resolver);
    HttpClients.start(client);
    if (verifiedClient != client) {
      HttpClients.start(verifiedClient);
    }
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
    request.send(new BodyCollector(call, ready, isRetry, url, chain, exchanges, attempt, started));
  }

  @Override
  public boolean hasRoomForAnotherBody() {
    return bodies.hasRoomFor(maxBodyBytes);
  }

  @Override
  public void close() {
    for (org.eclipse.jetty.util.component.LifeCycle each :
        List.of(client, verifiedClient, threads, scheduler)) {
      try {
        each.stop();
      } catch (Exception e) {
        // stopping: nothing left to do with the client
      }
    }
  }

  private static boolean sameOrigin(String url, String other) {
    try {
      return Origin.keyOf(url).equals(Origin.keyOf(other));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Collects the body up to the limit, follows a redirect when asked, and turns the result into a
   * {@link FetchAttempt}.
   */
  /** The body buffer of a response without a Content-Length, before it grows. */
  private static final int INITIAL_BODY_BYTES = 16 * 1024;

  /**
   * The most a Content-Length reserves before the bytes come: a server that announces a large body
   * and sends it slowly, or never, holds no more than this per connection; a larger body grows as
   * it arrives.
   */
  private static final int MAX_PRESIZED_BODY_BYTES = 256 * 1024;

  private final class BodyCollector implements Response.Listener {

    private final Call call;
    private final SiteGate.Ready ready;
    private final boolean isRetry;
    private final String url;
    private final List<String> chain;
    private final List<Exchange> exchanges;
    private final CompletableFuture<FetchAttempt> attempt;
    private final long started;
    private final long sentAt = System.currentTimeMillis();

    /**
     * The body so far: sized by Content-Length when there is one, so it is usually written once.
     */
    private byte[] body = new byte[INITIAL_BODY_BYTES];

    private int bodyLength;

    /** The bytes of the body's buffer beyond its first, reserved in the budget. */
    private long reserved;

    BodyCollector(
        Call call,
        SiteGate.Ready ready,
        boolean isRetry,
        String url,
        List<String> chain,
        List<Exchange> exchanges,
        CompletableFuture<FetchAttempt> attempt,
        long started) {
      this.call = call;
      this.ready = ready;
      this.isRetry = isRetry;
      this.url = url;
      this.chain = chain;
      this.exchanges = exchanges;
      this.attempt = attempt;
      this.started = started;
    }

    @Override
    public void onHeaders(Response response) {
      long length = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
      if (length > maxBodyBytes && !call.isHead()) {
        response.abort(
            new Failures.AbortedException(
                FailureKind.TOO_LARGE,
                "Content-Length " + length + " is over the limit of " + maxBodyBytes + " bytes"));
        return;
      }
      if (length > body.length && length <= maxBodyBytes && !call.isHead()) {
        int size = (int) Math.min(length, MAX_PRESIZED_BODY_BYTES);
        if (!reserve(response, size)) {
          return;
        }
        body = new byte[size];
      }
      FetchOptions filters = call.metadataFilters();
      int status = response.getStatus();
      if (filters != null && status >= 200 && status < 300) {
        String mediaType =
            mediaType(response.getHeaders().get(HttpHeader.CONTENT_TYPE)).orElse(null);
        if (!filters.isAcceptedMetadata(mediaType, length)) {
          response.abort(
              new Failures.AbortedException(
                  FailureKind.REJECTED_METADATA,
                  "Content-Type "
                      + mediaType
                      + ", Content-Length "
                      + (length < 0 ? "unknown" : length)));
        }
      }
    }

    @Override
    public void onContent(Response response, ByteBuffer content) {
      int size = content.remaining();
      if ((long) bodyLength + size > maxBodyBytes) {
        response.abort(
            new Failures.AbortedException(
                FailureKind.TOO_LARGE, "body is over the limit of " + maxBodyBytes + " bytes"));
        return;
      }
      if (bodyLength + size > body.length) {
        // no or a wrong Content-Length (a compressed body is decoded on the way): grow, within the
        // limit
        long grown = Math.min(maxBodyBytes, Math.max(bodyLength + size, 2L * body.length));
        int length = (int) Math.min(grown, Integer.MAX_VALUE - 8);
        if (!reserve(response, length)) {
          return;
        }
        body = Arrays.copyOf(body, length);
      }
      content.get(body, bodyLength, size);
      bodyLength += size;
    }

    /**
     * Reserves what a buffer of {@code length} takes beyond the one held; aborts the request when
     * the budget has no room.
     */
    private boolean reserve(Response response, int length) {
      long wanted = Math.max(0, (long) length - INITIAL_BODY_BYTES) - reserved;
      if (wanted <= 0) {
        return true;
      }
      if (!bodies.tryReserve(wanted)) {
        response.abort(
            new Failures.AbortedException(
                FailureKind.BUDGET_SPENT,
                "the fetcher holds "
                    + bodies.used()
                    + " bytes of bodies, its budget of "
                    + bodies.capacity()));
        return false;
      }
      reserved += wanted;
      return true;
    }

    @Override
    public void onComplete(Result result) {
      bodies.release(reserved);
      reserved = 0;
      long millis = millisSince(started);
      if (result.isFailed()) {
        Throwable failure = result.getFailure();
        attempt.complete(
            new FetchAttempt.Failure(
                Failures.kindOf(
                    failure, result.getResponse() != null && result.getResponse().getStatus() > 0),
                Failures.describe(failure),
                millis));
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
                        new ArrayList<>(),
                        attempt,
                        started);
                  }
                });
        return;
      }
      Optional<String> target = redirectTarget(response);
      if (target.isPresent()
          && chain.size() < call.maxRedirects()
          && !target.get().equals(url)
          && !chain.contains(target.get())) {
        List<String> next = new ArrayList<>(chain);
        next.add(url);
        List<Exchange> recorded = new ArrayList<>(exchanges);
        if (recordsExchanges) {
          recorded.add(exchange(response, Optional.of(Arrays.copyOf(body, bodyLength))));
        }
        send(call, ready, isRetry, target.get(), next, recorded, attempt, started);
        return;
      }
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpField field : response.getHeaders()) {
        headers.merge(
            field.getName(),
            Redaction.received(field.getName(), field.getValue()),
            (first, second) -> first + ", " + second);
      }
      ContentDecoding.Decoded decoded =
          ContentDecoding.decode(
              response.getHeaders().get(HttpHeader.CONTENT_ENCODING),
              bodyLength == body.length ? body : Arrays.copyOf(body, bodyLength),
              maxBodyBytes);
      if (decoded instanceof ContentDecoding.TooLarge tooLarge) {
        attempt.complete(
            new FetchAttempt.Failure(FailureKind.TOO_LARGE, tooLarge.detail(), millis));
        return;
      }
      if (decoded instanceof ContentDecoding.Broken broken) {
        attempt.complete(
            new FetchAttempt.Failure(FailureKind.BROKEN_RESPONSE, broken.detail(), millis));
        return;
      }
      String contentType = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
      Optional<String> charset =
          Optional.ofNullable(contentType).map(MimeTypes::getCharsetFromContentType);
      byte[] bytes = ((ContentDecoding.Body) decoded).bytes();
      List<Exchange> recorded = exchanges;
      if (recordsExchanges) {
        recorded = new ArrayList<>(exchanges);
        // the body as received, unless it is the decoded one (no content coding): sent once
        recorded.add(
            exchange(
                response,
                bytes.length == bodyLength
                        && Arrays.equals(bytes, 0, bodyLength, body, 0, bodyLength)
                    ? Optional.empty()
                    : Optional.of(Arrays.copyOf(body, bodyLength))));
      }
      attempt.complete(
          new FetchAttempt.Response(
              status,
              headers,
              bytes,
              mediaType(contentType),
              charset,
              millis,
              chain,
              url,
              recorded));
    }

    /** The exchange of this request and its response, as sent and received. */
    private Exchange exchange(Response response, Optional<byte[]> rawBody) {
      Request request = response.getRequest();
      List<Exchange.Header> sent = new ArrayList<>();
      for (HttpField field : request.getHeaders()) {
        sent.add(
            new Exchange.Header(
                field.getName(), Redaction.sent(field.getName(), field.getValue(), call.access())));
      }
      List<Exchange.Header> received = new ArrayList<>();
      for (HttpField field : response.getHeaders()) {
        received.add(
            new Exchange.Header(
                field.getName(), Redaction.received(field.getName(), field.getValue())));
      }
      return new Exchange(
          url,
          request.getMethod(),
          response.getVersion().asString(),
          peerAddress(request),
          Instant.ofEpochMilli(sentAt),
          sent,
          response.getStatus(),
          response.getReason() == null ? "" : response.getReason(),
          received,
          rawBody);
    }

    /** The normalized target of a 3xx, when it names a usable one. */
    private Optional<String> redirectTarget(Response response) {
      int status = response.getStatus();
      if (status < 300 || status >= 400 || status == 304) {
        return Optional.empty();
      }
      return Optional.ofNullable(response.getHeaders().get(HttpHeader.LOCATION))
          .flatMap(location -> UrlNormalizer.resolve(url, location))
          .flatMap(UrlNormalizer::tryNormalize);
    }
  }

  /** The IP address a request's connection went to, when Jetty tells it. */
  private static Optional<String> peerAddress(Request request) {
    Connection connection = request.getConnection();
    if (connection != null
        && connection.getRemoteSocketAddress() instanceof InetSocketAddress address
        && address.getAddress() != null) {
      return Optional.of(address.getAddress().getHostAddress());
    }
    return Optional.empty();
  }

  private static Optional<String> mediaType(@org.jspecify.annotations.Nullable String contentType) {
    return Optional.ofNullable(contentType)
        .map(MimeTypes::getContentTypeWithoutCharset)
        .map(type -> type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT))
        .filter(type -> !type.isEmpty());
  }

  private static long millisSince(long started) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
  }
}
