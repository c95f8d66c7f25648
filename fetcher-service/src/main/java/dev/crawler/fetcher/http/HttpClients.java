package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.FetchOptions;
import java.time.Duration;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The fetcher's Jetty clients, built one way: HTTP/1.1 and HTTP/2 (ALPN), redirects and content
 * decoding left to the fetcher, the response headers bounded, the address guard as resolver; the
 * threads and the timer shared between them and owned by the fetcher.
 */
final class HttpClients {

  private HttpClients() {}

  static HttpClient newClient(
      SslContextFactory.Client tls,
      QueuedThreadPool threads,
      ScheduledExecutorScheduler scheduler,
      SocketAddressResolver resolver,
      String userAgent,
      Duration connectTimeout,
      Duration idleTimeout,
      int maxConnections) {
    ClientConnector connector = new ClientConnector();
    connector.setSslContextFactory(tls);
    connector.setConnectTimeout(connectTimeout);
    connector.setExecutor(threads);
    connector.setScheduler(scheduler);
    HTTP2Client http2 = new HTTP2Client(connector);
    http2.setMaxResponseHeadersSize(JettyPageFetcher.MAX_RESPONSE_HEADERS_BYTES);
    HttpClient client =
        new HttpClient(
            new HttpClientTransportDynamic(
                connector,
                HttpClientConnectionFactory.HTTP11,
                new ClientConnectionFactoryOverHTTP2.HTTP2(http2)));
    client.setExecutor(threads);
    client.setScheduler(scheduler);
    client.setSocketAddressResolver(resolver);
    client.setFollowRedirects(false);
    client.setMaxResponseHeadersSize(JettyPageFetcher.MAX_RESPONSE_HEADERS_BYTES);
    client.setMaxConnectionsPerDestination(
        Math.max(2, Math.min(maxConnections, FetchOptions.MAX_CONNECTIONS_LIMIT)));
    client.setMaxRequestsQueuedPerDestination(1024);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, userAgent));
    client.setIdleTimeout(idleTimeout.toMillis());
    client.setConnectTimeout(connectTimeout.toMillis());
    return client;
  }

  static void start(HttpClient client) {
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTP client: " + e.getMessage(), e);
    }
    // bodies are decoded here, after the size check, never by Jetty. Cleared after start: Jetty
    // 12.1's start fills an empty list with every compression on the class path
    // (jetty-compression-gzip comes with jetty-client), so a list cleared before start decoded
    // gzip after all, racing the size cap
    client.getContentDecoderFactories().clear();
  }
}
