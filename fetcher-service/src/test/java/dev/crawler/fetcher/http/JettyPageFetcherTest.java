package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Jetty page fetcher against a real Jetty server on 127.0.0.1. */
class JettyPageFetcherTest {

  private static final CountDownLatch NEVER = new CountDownLatch(1);
  private static final byte[] GZIPPED_PAGE =
      "<html><body>a page sent compressed, in chunks</body></html>"
          .repeat(40)
          .getBytes(StandardCharsets.UTF_8);
  private static Server server;
  private static String base;
  private static JettyPageFetcher fetcher;

  /** A second loopback address playing an internal service the fetcher may not reach. */
  private static ServerConnector internal;

  private static final AtomicInteger INTERNAL_REQUESTS = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    // room for a response with more headers than the fetcher takes
    connector
        .getConnectionFactory(HttpConnectionFactory.class)
        .getHttpConfiguration()
        .setResponseHeaderSize(512 * 1024);
    server.addConnector(connector);
    internal = new ServerConnector(server);
    internal.setHost("127.0.0.2");
    server.addConnector(internal);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            String path = request.getHttpURI().getPath();
            if (Request.getLocalPort(request) == internal.getLocalPort()) {
              INTERNAL_REQUESTS.incrementAndGet();
              response.write(
                  true, ByteBuffer.wrap("secret".getBytes(StandardCharsets.UTF_8)), callback);
              return true;
            }
            switch (path) {
              case "/page" -> {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=ISO-8859-1");
                response.getHeaders().add("X-Many", "a");
                response.getHeaders().add("X-Many", "b");
                response
                    .getHeaders()
                    .put("User-Agent-Seen", request.getHeaders().get(HttpHeader.USER_AGENT));
                response.write(
                    true,
                    ByteBuffer.wrap("<html>hello</html>".getBytes(StandardCharsets.ISO_8859_1)),
                    callback);
              }
              case "/big" -> {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                response.write(true, ByteBuffer.wrap(new byte[5000]), callback);
              }
              case "/gzip-bomb" -> {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
                response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
                response.write(true, ByteBuffer.wrap(gzip(new byte[64 * 1024])), callback);
              }
              case "/streamed" -> {
                // no Content-Length: chunked, in pieces, so the body grows as it comes
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                byte[] all = LONG_BODY;
                int piece = all.length / 7 + 1;
                for (int from = 0; from < all.length; from += piece) {
                  int to = Math.min(all.length, from + piece);
                  Callback.Completable written = new Callback.Completable();
                  response.write(to == all.length, ByteBuffer.wrap(all, from, to - from), written);
                  written.get();
                }
                callback.succeeded();
              }
              case "/sized" -> {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, LONG_BODY.length);
                response.write(true, ByteBuffer.wrap(LONG_BODY), callback);
              }
              case "/huge-headers" -> {
                for (int i = 0; i < 100; i++) {
                  response.getHeaders().add("X-Padding-" + i, "p".repeat(1024));
                }
                response.write(true, ByteBuffer.wrap(new byte[1]), callback);
              }
              case "/slow" -> {
                NEVER.await(2, TimeUnit.SECONDS);
                response.write(true, ByteBuffer.wrap(new byte[1]), callback);
              }
              case "/to-internal" -> {
                response.setStatus(302);
                response
                    .getHeaders()
                    .put(
                        HttpHeader.LOCATION,
                        "http://127.0.0.2:" + internal.getLocalPort() + "/latest/meta-data/");
                callback.succeeded();
              }
              case "/gzipped" -> {
                // gzip, and no Content-Length: chunked, as many servers send compressed pages
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
                response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
                byte[] compressed = gzip(GZIPPED_PAGE);
                int half = compressed.length / 2;
                Callback.Completable first = new Callback.Completable();
                response.write(false, ByteBuffer.wrap(compressed, 0, half), first);
                first.get();
                response.write(
                    true, ByteBuffer.wrap(compressed, half, compressed.length - half), callback);
              }
              case "/to-gzipped" -> {
                response.setStatus(302);
                response.getHeaders().put(HttpHeader.LOCATION, "/gzipped");
                response.write(
                    true, ByteBuffer.wrap("moved".getBytes(StandardCharsets.UTF_8)), callback);
              }
              case "/moved" -> {
                response.setStatus(301);
                response.getHeaders().put(HttpHeader.LOCATION, "/page");
                callback.succeeded();
              }
              default -> {
                response.setStatus(404);
                callback.succeeded();
              }
            }
            return true;
          }
        });
    server.start();
    base = "http://127.0.0.1:" + connector.getLocalPort();
    fetcher =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(1024)
            .timeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(500))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(false)
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    fetcher.close();
    server.stop();
  }

  @Test
  void returnsStatusHeadersBodyAndContentType() throws Exception {
    FetchAttempt.Response response =
        (FetchAttempt.Response) fetcher.get(base + "/page", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(response.status()).isEqualTo(200);
    assertThat(new String(response.body(), StandardCharsets.ISO_8859_1))
        .isEqualTo("<html>hello</html>");
    assertThat(response.contentType()).contains("text/html");
    assertThat(response.charset()).contains("iso-8859-1");
    assertThat(response.header("x-many")).contains("a, b");
    assertThat(response.header("User-Agent-Seen")).contains("test-bot/1.0");
  }

  @Test
  void recordsEachExchangeAsSentAndReceivedWhenAsked() throws Exception {
    try (JettyPageFetcher recording =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(64 * 1024)
            .timeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(500))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(true)
            .build()) {
      FetchAttempt.Response response =
          (FetchAttempt.Response)
              recording
                  .get(base + "/to-gzipped", Map.of("If-None-Match", "\"v1\""), 2)
                  .get(5, TimeUnit.SECONDS);

      assertThat(response.body()).isEqualTo(GZIPPED_PAGE);
      assertThat(response.exchanges()).hasSize(2);
      Exchange hop = response.exchanges().get(0);
      assertThat(hop.url()).isEqualTo(base + "/to-gzipped");
      assertThat(hop.status()).isEqualTo(302);
      assertThat(hop.responseHeaders()).contains(new Exchange.Header("Location", "/gzipped"));
      assertThat(hop.rawBody())
          .hasValueSatisfying(
              body -> assertThat(body).isEqualTo("moved".getBytes(StandardCharsets.UTF_8)));
      Exchange page = response.exchanges().get(1);
      assertThat(page.url()).isEqualTo(base + "/gzipped");
      assertThat(page.method()).isEqualTo("GET");
      assertThat(page.httpVersion()).isEqualTo("HTTP/1.1");
      assertThat(page.peerAddress()).contains("127.0.0.1");
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.reason()).isEqualTo("OK");
      assertThat(page.requestHeaders())
          .contains(
              new Exchange.Header("User-Agent", "test-bot/1.0"),
              new Exchange.Header("If-None-Match", "\"v1\""));
      assertThat(page.requestHeaders())
          .extracting(Exchange.Header::name)
          .contains("Accept-Encoding");
      assertThat(page.responseHeaders())
          .contains(
              new Exchange.Header("Content-Encoding", "gzip"),
              new Exchange.Header("Transfer-Encoding", "chunked"));
      // the body as the server sent it: compressed, without the chunked framing
      byte[] compressed = gzip(GZIPPED_PAGE);
      assertThat(page.rawBody()).hasValueSatisfying(raw -> assertThat(raw).isEqualTo(compressed));
    }
  }

  @Test
  void recordsNoExchangeUnlessAsked() throws Exception {
    FetchAttempt.Response response =
        (FetchAttempt.Response) fetcher.get(base + "/page", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(response.exchanges()).isEmpty();
  }

  @Test
  void refusesAnAddressOutsideTheAllowedRangesBeforeSendingAByte() throws Exception {
    int before = INTERNAL_REQUESTS.get();

    FetchAttempt.Failure failure =
        (FetchAttempt.Failure)
            fetcher
                .get(
                    "http://127.0.0.2:" + internal.getLocalPort() + "/latest/meta-data/",
                    Map.of(),
                    0)
                .get(5, TimeUnit.SECONDS);

    assertThat(failure.kind()).isEqualTo(FetchAttempt.FailureKind.ADDRESS_DENIED);
    assertThat(failure.detail()).isEqualTo("127.0.0.2: 127.0.0.2 is in 127.0.0.0/8 (loopback)");
    assertThat(INTERNAL_REQUESTS.get()).isEqualTo(before);
  }

  @Test
  void checksEveryRedirectHopOnItsOwnAddress() throws Exception {
    int before = INTERNAL_REQUESTS.get();

    FetchAttempt attempt = fetcher.get(base + "/to-internal", Map.of(), 5).get(5, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure ->
                assertThat(failure.kind()).isEqualTo(FetchAttempt.FailureKind.ADDRESS_DENIED));
    assertThat(INTERNAL_REQUESTS.get()).isEqualTo(before);
  }

  @Test
  void judgesANameByTheAddressItResolvesTo() throws Exception {
    String byName = base.replace("127.0.0.1", "localhost") + "/page";
    assertThat(fetcher.get(byName, Map.of(), 0).get(5, TimeUnit.SECONDS))
        .isInstanceOf(FetchAttempt.Response.class);

    try (JettyPageFetcher guarded =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(1024)
            .timeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(500))
            .maxConnections(16)
            .addresses(AddressPolicy.defaults())
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(false)
            .build()) {
      assertThat(guarded.get(byName, Map.of(), 0).get(5, TimeUnit.SECONDS))
          .isInstanceOfSatisfying(
              FetchAttempt.Failure.class,
              failure ->
                  assertThat(failure.kind()).isEqualTo(FetchAttempt.FailureKind.ADDRESS_DENIED));
    }
  }

  @Test
  void aResponseWhoseHeadersAreLargerThanTheBoundFails() throws Exception {
    FetchAttempt attempt =
        fetcher.get(base + "/huge-headers", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure ->
                assertThat(failure.kind())
                    .isIn(
                        FetchAttempt.FailureKind.PROTOCOL_ERROR,
                        FetchAttempt.FailureKind.BROKEN_RESPONSE));
  }

  @Test
  void aBodyThatFindsNoRoomInTheBudgetFailsItsRequestAndGivesEverythingBack() throws Exception {
    BodyBudget small = new BodyBudget(100_000);
    try (JettyPageFetcher tight =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(1_000_000)
            .timeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(500))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(small)
            .recordsExchanges(false)
            .build()) {
      for (String path : new String[] {"/streamed", "/sized"}) {
        FetchAttempt attempt = tight.get(base + path, Map.of(), 0).get(5, TimeUnit.SECONDS);

        assertThat(attempt)
            .isInstanceOfSatisfying(
                FetchAttempt.Failure.class,
                failure ->
                    assertThat(failure.kind()).isEqualTo(FetchAttempt.FailureKind.BUDGET_SPENT));
        assertThat(small.used()).as("given back").isZero();
      }
      assertThat(tight.hasRoomForAnotherBody()).isFalse(); // 1 MB bodies never fit in 100 KB
      assertThat(tight.get(base + "/page", Map.of(), 0).get(5, TimeUnit.SECONDS))
          .as("a small body needs no reservation")
          .isInstanceOf(FetchAttempt.Response.class);
    }
  }

  /** 300,000 bytes of a pattern: more than a Content-Length presizes, and than any first buffer. */
  private static final byte[] LONG_BODY = new byte[300_000];

  static {
    for (int i = 0; i < LONG_BODY.length; i++) {
      LONG_BODY[i] = (byte) (i * 31 + i / 251);
    }
  }

  @Test
  void readsALongBodyWholeWithAndWithoutContentLength() throws Exception {
    try (JettyPageFetcher roomy =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(1_000_000)
            .timeouts(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(500))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(false)
            .build()) {
      for (String path : new String[] {"/streamed", "/sized"}) {
        FetchAttempt.Response response =
            (FetchAttempt.Response) roomy.get(base + path, Map.of(), 0).get(5, TimeUnit.SECONDS);
        assertThat(response.body()).as(path).isEqualTo(LONG_BODY);
      }
    }
  }

  @Test
  void doesNotFollowRedirectsUnlessAsked() throws Exception {
    FetchAttempt.Response notFollowed =
        (FetchAttempt.Response) fetcher.get(base + "/moved", Map.of(), 0).get(5, TimeUnit.SECONDS);
    FetchAttempt.Response followed =
        (FetchAttempt.Response) fetcher.get(base + "/moved", Map.of(), 5).get(5, TimeUnit.SECONDS);

    assertThat(notFollowed.status()).isEqualTo(301);
    assertThat(notFollowed.header("Location")).contains("/page");
    assertThat(followed.status()).isEqualTo(200);
  }

  @Test
  void abortsABodyOverTheLimit() throws Exception {
    FetchAttempt attempt = fetcher.get(base + "/big", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TOO_LARGE));
  }

  @Test
  void decodesBodiesItselfUnderTheLimitNeverLettingJettyDecodeThem() throws Exception {
    FetchAttempt attempt = fetcher.get(base + "/gzip-bomb", Map.of(), 0).get(5, TimeUnit.SECONDS);

    // Jetty decoding it would abort on the decoded bytes ("body is over the limit"),
    // racing its own decoder
    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> {
              assertThat(failure.kind()).isEqualTo(FailureKind.TOO_LARGE);
              assertThat(failure.detail()).isEqualTo("gzip body decodes to more than 1024 bytes");
            });
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(bytes);
    }
    return out.toByteArray();
  }

  @Test
  void timesOutASlowResponse() throws Exception {
    FetchAttempt attempt = fetcher.get(base + "/slow", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TIMEOUT));
  }

  @Test
  void reportsARefusedConnection() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    FetchAttempt attempt =
        fetcher.get("http://127.0.0.1:" + closedPort + "/", Map.of(), 0).get(5, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> assertThat(failure.kind()).isEqualTo(FailureKind.CONNECT_FAILED));
  }

  @Test
  void describesAFailureInWordsAndNeverAsAJettyObjectDump() {
    String dump =
        "HttpConnectionOverHTTP@61630baf::SocketChannelEndPoint@2c1b9e4e{l=/127.0.0.1:40000,r=/127.0.0.1:8080,OPEN,fill=-,flush=-,to=3/30000}";

    assertThat(Failures.describe(new EOFException(dump)))
        .isEqualTo("the server closed the connection before the response ended");
    assertThat(Failures.describe(new IOException("oejcti." + dump, new EOFException())))
        .isEqualTo("the server closed the connection before the response ended");
    assertThat(Failures.describe(new IOException("wrapped", new EOFException(dump))))
        .isEqualTo("wrapped");
    assertThat(Failures.describe(new ClosedChannelException()))
        .isEqualTo("the connection was closed");
    assertThat(
            Failures.describe(
                new IllegalStateException("Connection reset on oejcti.HttpConnectionOverHTTP@1")))
        .isEqualTo("Connection reset");
  }
}
