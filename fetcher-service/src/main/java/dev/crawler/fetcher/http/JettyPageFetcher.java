package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The {@link PageFetcher} on Jetty's asynchronous {@link HttpClient}: HTTP/1.1, and HTTP/2 where the
 * server offers it over TLS (ALPN). Redirects are not followed unless asked; the body is read up to a
 * limit and the request aborted beyond it; gzip and deflate are decoded. TLS certificates are not
 * verified by default: a crawler must read sites whose certificates are expired or self-signed.
 */
public final class JettyPageFetcher implements PageFetcher {

  /** Redirects followed by a request that follows them (robots.txt's, RFC 9309: at least five). */
  static final int MAX_REDIRECTS = 5;

  private final HttpClient client;
  private final String userAgent;
  private final long maxBodyBytes;
  private final Duration requestTimeout;

  /**
   * @param userAgent the User-Agent header
   * @param maxBodyBytes the largest body read; a longer one is a {@link FailureKind#TOO_LARGE} failure
   * @param maxConnections connections open at most, over all origins
   * @param verifyTls whether TLS certificates and host names are verified
   */
  public JettyPageFetcher(String userAgent, long maxBodyBytes, Duration connectTimeout, Duration requestTimeout, int maxConnections, boolean verifyTls) {
    this.userAgent = userAgent;
    this.maxBodyBytes = maxBodyBytes;
    this.requestTimeout = requestTimeout;
    SslContextFactory.Client tls = new SslContextFactory.Client(!verifyTls);
    if (!verifyTls) {
      tls.setEndpointIdentificationAlgorithm(null);
    }
    ClientConnector connector = new ClientConnector();
    connector.setSslContextFactory(tls);
    connector.setConnectTimeout(connectTimeout);
    QueuedThreadPool threads = new QueuedThreadPool(Math.max(8, Runtime.getRuntime().availableProcessors() * 4), 2);
    threads.setName("fetcher-http");
    threads.setDaemon(true);
    connector.setExecutor(threads);
    HTTP2Client http2 = new HTTP2Client(connector);
    this.client = new HttpClient(new HttpClientTransportDynamic(connector, HttpClientConnectionFactory.HTTP11, new ClientConnectionFactoryOverHTTP2.HTTP2(http2)));
    client.setExecutor(threads);
    client.setFollowRedirects(false);
    client.setMaxRedirects(MAX_REDIRECTS);
    client.setMaxConnectionsPerDestination(Math.max(2, Math.min(maxConnections, 16)));
    client.setMaxRequestsQueuedPerDestination(1024);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, userAgent));
    client.setIdleTimeout(requestTimeout.toMillis());
    client.setConnectTimeout(connectTimeout.toMillis());
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTP client: " + e.getMessage(), e);
    }
  }

  @Override
  public CompletableFuture<FetchAttempt> get(String url, Map<String, String> headers, int maxRedirects) {
    CompletableFuture<FetchAttempt> attempt = new CompletableFuture<>();
    long started = System.nanoTime();
    Request request;
    try {
      request =
          client.newRequest(url)
              .followRedirects(maxRedirects > 0)
              .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
              .headers(fields -> headers.forEach(fields::put));
    } catch (IllegalArgumentException e) {
      attempt.complete(new FetchAttempt.Failure(FailureKind.CONNECT_FAILED, "bad URL: " + e.getMessage(), 0));
      return attempt;
    }
    request.send(new BodyCollector(attempt, started));
    return attempt;
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // stopping: nothing left to do with the client
    }
  }

  /** Collects the body up to the limit and turns the result into a {@link FetchAttempt}. */
  private final class BodyCollector implements Response.Listener {

    private final CompletableFuture<FetchAttempt> attempt;
    private final long started;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    BodyCollector(CompletableFuture<FetchAttempt> attempt, long started) {
      this.attempt = attempt;
      this.started = started;
    }

    @Override
    public void onHeaders(Response response) {
      long length = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
      if (length > maxBodyBytes) {
        response.abort(new BodyTooLargeException("Content-Length " + length + " is over the limit of " + maxBodyBytes + " bytes"));
      }
    }

    @Override
    public void onContent(Response response, ByteBuffer content) {
      if (body.size() + content.remaining() > maxBodyBytes) {
        response.abort(new BodyTooLargeException("body is over the limit of " + maxBodyBytes + " bytes"));
        return;
      }
      byte[] bytes = new byte[content.remaining()];
      content.get(bytes);
      body.write(bytes, 0, bytes.length);
    }

    @Override
    public void onComplete(Result result) {
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      if (result.isFailed()) {
        Throwable failure = result.getFailure();
        attempt.complete(new FetchAttempt.Failure(kindOf(failure, result.getResponse() != null && result.getResponse().getStatus() > 0), describe(failure), millis));
        return;
      }
      Response response = result.getResponse();
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpField field : response.getHeaders()) {
        headers.merge(field.getName(), field.getValue(), (first, second) -> first + ", " + second);
      }
      String contentType = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
      Optional<String> mediaType = Optional.ofNullable(contentType).map(MimeTypes::getContentTypeWithoutCharset).map(type -> type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT)).filter(type -> !type.isEmpty());
      Optional<String> charset = Optional.ofNullable(contentType).map(MimeTypes::getCharsetFromContentType);
      attempt.complete(new FetchAttempt.Response(response.getStatus(), headers, body.toByteArray(), mediaType, charset, millis));
    }
  }

  private static FailureKind kindOf(Throwable failure, boolean hadResponse) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BodyTooLargeException) {
        return FailureKind.TOO_LARGE;
      }
      if (cause instanceof TimeoutException || cause instanceof java.net.SocketTimeoutException) {
        return FailureKind.TIMEOUT;
      }
      if (cause instanceof ConnectException || cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
        return FailureKind.CONNECT_FAILED;
      }
      if (cause instanceof EOFException) {
        return FailureKind.BROKEN_RESPONSE;
      }
    }
    return hadResponse ? FailureKind.BROKEN_RESPONSE : FailureKind.CONNECT_FAILED;
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return message == null ? failure.getClass().getSimpleName() : message;
  }

  /** The body is larger than the limit: the request is aborted with this. */
  static final class BodyTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException(String message) {
      super(message, null, false, false);
    }
  }
}
