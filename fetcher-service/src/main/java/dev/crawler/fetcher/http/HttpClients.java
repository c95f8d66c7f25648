package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.FetchOptions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The fetcher's Jetty clients and what they share, from their building to their stop: the open
 * client, which verifies TLS only when the settings say so, and the verified one that requests with
 * credentials go through (the same client when the settings verify TLS against the JDK's trust
 * store); the threads and the timer; the address guard as resolver; the origins' cookie jars and
 * proxy routes. Both clients are built one way: HTTP/1.1 and HTTP/2 (ALPN), redirects and content
 * decoding left to the fetcher, the response headers bounded.
 */
final class HttpClients {

  private final QueuedThreadPool threads;
  private final ScheduledExecutorScheduler scheduler;
  private final SocketAddressResolver resolver;
  private final HttpClient open;
  private final HttpClient verified;
  private final OriginCookieJars jars;
  private final ProxyRoutes routes;

  /**
   * Starts the threads and the timer and builds the clients, which {@link #start()} starts; the
   * parameters are the {@link JettyPageFetcher}'s, the clock the one the cookie jars expire cookies
   * by.
   */
  HttpClients(
      String userAgent,
      Duration connectTimeout,
      Duration idleTimeout,
      int maxConnections,
      boolean verifyTls,
      AddressPolicy addresses,
      Optional<TrustStore> trustStore,
      InstantSource clock) {
    this.jars = new OriginCookieJars(clock);
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
    ProxyRoutes[] routes = new ProxyRoutes[1];
    this.resolver =
        new GuardedAddressResolver(
            new SocketAddressResolver.Async(threads, scheduler, connectTimeout.toMillis()),
            addresses,
            (host, port) -> routes[0] != null && routes[0].isProxy(host, port));
    SslContextFactory.Client tls = new SslContextFactory.Client(!verifyTls);
    if (!verifyTls) {
      tls.setEndpointIdentificationAlgorithm(null);
    }
    // both clients share the threads, the timer, the address guard and their settings
    Function<SslContextFactory.Client, HttpClient> client =
        factory ->
            newClient(
                factory,
                threads,
                scheduler,
                resolver,
                userAgent,
                connectTimeout,
                idleTimeout,
                maxConnections);
    this.open = client.apply(tls);
    open.setHttpCookieStore(jars.store(verifyTls));
    if (verifyTls && trustStore.isEmpty()) {
      this.verified = open;
    } else {
      SslContextFactory.Client verifying = new SslContextFactory.Client(false);
      trustStore.ifPresent(
          store -> {
            verifying.setTrustStorePath(store.path().toString());
            verifying.setTrustStorePassword(store.password());
          });
      this.verified = client.apply(verifying);
      verified.setHttpCookieStore(jars.store(true));
    }
    routes[0] = verified == open ? new ProxyRoutes(open) : new ProxyRoutes(open, verified);
    this.routes = routes[0];
  }

  /** The client of requests without credentials: it verifies TLS only when the settings say so. */
  HttpClient open() {
    return open;
  }

  /** The client of requests with credentials: it always verifies TLS. */
  HttpClient verified() {
    return verified;
  }

  /** The address guard both clients resolve through. */
  SocketAddressResolver resolver() {
    return resolver;
  }

  OriginCookieJars jars() {
    return jars;
  }

  ProxyRoutes routes() {
    return routes;
  }

  /** Starts the clients. */
  void start() {
    start(open);
    if (verified != open) {
      start(verified);
    }
  }

  /** Stops the clients, then the threads and the timer they share. */
  void stop() {
    for (LifeCycle each : List.of(open, verified, threads, scheduler)) {
      try {
        each.stop();
      } catch (Exception e) {
        // stopping: nothing left to do with the client
      }
    }
  }

  private static HttpClient newClient(
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
    client.setAuthenticationStore(new ProtectionSpaceStore());
    client.setMaxResponseHeadersSize(JettyPageFetcher.MAX_RESPONSE_HEADERS_BYTES);
    client.setMaxConnectionsPerDestination(
        Math.max(2, Math.min(maxConnections, FetchOptions.MAX_CONNECTIONS_LIMIT)));
    client.setMaxRequestsQueuedPerDestination(1024);
    client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, userAgent));
    client.setIdleTimeout(idleTimeout.toMillis());
    client.setConnectTimeout(connectTimeout.toMillis());
    return client;
  }

  private static void start(HttpClient client) {
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
