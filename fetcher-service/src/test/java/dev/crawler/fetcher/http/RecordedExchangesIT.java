package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.Exchange.Truncation;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.SiteAccess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a fetcher that records exchanges keeps of each, against a Jetty server and a plain socket
 * server on 127.0.0.1: the body as received for error statuses and HEAD requests, a body over the
 * size limit kept up to it and marked truncated (with or without a Content-Length), and the peer's
 * address of a body delimited by the connection's close.
 */
class RecordedExchangesIT {

  private static final int MAX_BODY_BYTES = 2048;
  private static final byte[] BIG = new byte[10_000];
  private static final byte[] ERROR_BODY =
      "<html><body>nothing here</body></html>".getBytes(StandardCharsets.UTF_8);
  private static final byte[] CLOSED_BODY =
      "a body that ends when the connection closes".getBytes(StandardCharsets.UTF_8);

  private static Server server;
  private static String base;
  private static ServerSocket closing;
  private static Thread closingThread;
  private static JettyPageFetcher fetcher;

  @BeforeAll
  static void start() throws Exception {
    Arrays.fill(BIG, (byte) 'x');
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
            switch (request.getHttpURI().getPath()) {
              case "/missing", "/broken" -> {
                response.setStatus(request.getHttpURI().getPath().equals("/missing") ? 404 : 500);
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, ERROR_BODY.length);
                if (!request.getMethod().equals("HEAD")) {
                  response.write(true, ByteBuffer.wrap(ERROR_BODY), callback);
                  return true;
                }
                callback.succeeded();
              }
              case "/sized" -> {
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BIG.length);
                response.write(true, ByteBuffer.wrap(BIG), callback);
              }
              case "/chunked" -> {
                Callback.Completable first = new Callback.Completable();
                response.write(false, ByteBuffer.wrap(BIG, 0, 1000), first);
                first.get();
                response.write(true, ByteBuffer.wrap(BIG, 1000, BIG.length - 1000), callback);
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
    closing = new ServerSocket();
    closing.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
    closingThread = new Thread(RecordedExchangesIT::serveClosing, "closing-server");
    closingThread.setDaemon(true);
    closingThread.start();
    fetcher =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(MAX_BODY_BYTES)
            .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(5))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(true)
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    fetcher.close();
    server.stop();
    closing.close();
  }

  @ParameterizedTest
  @CsvSource({"/missing, 404", "/broken, 500"})
  void recordsAnErrorStatusWithItsBody(String path, int status) throws Exception {
    FetchAttempt.Response response = (FetchAttempt.Response) get(path, false);

    assertThat(response.status()).isEqualTo(status);
    assertThat(response.exchanges())
        .singleElement()
        .satisfies(
            exchange -> {
              // the body is the decoded one: carried once, on the response
              assertThat(exchange.rawBody()).isEmpty();
              assertThat(exchange.truncated()).isEmpty();
              assertThat(exchange.peerAddress()).contains("127.0.0.1");
            });
    assertThat(response.body()).isEqualTo(ERROR_BODY);
  }

  @Test
  void recordsAHeadRequest() throws Exception {
    FetchAttempt.Response response = (FetchAttempt.Response) get("/missing", true);

    assertThat(response.exchanges())
        .singleElement()
        .satisfies(
            exchange -> {
              assertThat(exchange.method()).isEqualTo("HEAD");
              assertThat(exchange.peerAddress()).contains("127.0.0.1");
              assertThat(exchange.responseHeaders())
                  .contains(new Exchange.Header("Content-Length", "" + ERROR_BODY.length));
            });
    assertThat(response.body()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"/sized", "/chunked"})
  void keepsABodyOverTheLimitUpToItMarkedTruncated(String path) throws Exception {
    FetchAttempt attempt = get(path, false);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TOO_LARGE));
    assertThat(attempt.exchanges())
        .singleElement()
        .satisfies(
            exchange -> {
              assertThat(exchange.status()).isEqualTo(200);
              assertThat(exchange.rawBody())
                  .hasValueSatisfying(
                      body -> assertThat(body).isEqualTo(Arrays.copyOf(BIG, MAX_BODY_BYTES)));
              assertThat(exchange.truncated()).contains(Truncation.LENGTH);
              assertThat(exchange.peerAddress()).contains("127.0.0.1");
            });
  }

  @Test
  void namesThePeerOfABodyDelimitedByTheClose() throws Exception {
    FetchAttempt.Response response =
        (FetchAttempt.Response)
            fetcher
                .get("http://127.0.0.1:" + closing.getLocalPort() + "/closed", Map.of(), 0)
                .get(10, TimeUnit.SECONDS);

    assertThat(response.body()).isEqualTo(CLOSED_BODY);
    assertThat(response.exchanges())
        .singleElement()
        .satisfies(exchange -> assertThat(exchange.peerAddress()).contains("127.0.0.1"));
  }

  @Test
  void recordsNothingWhenNotAsked() throws Exception {
    try (JettyPageFetcher plain =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(MAX_BODY_BYTES)
            .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(5))
            .maxConnections(4)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(false)
            .build()) {
      FetchAttempt attempt = plain.get(base + "/sized", Map.of(), 0).get(10, TimeUnit.SECONDS);

      assertThat(attempt).isInstanceOf(FetchAttempt.Failure.class);
      assertThat(attempt.exchanges()).isEmpty();
    }
  }

  private static FetchAttempt get(String path, boolean isHead) throws Exception {
    return fetcher
        .fetch(new PageFetcher.Call(base + path, isHead, Map.of(), 0, null, SiteAccess.NONE))
        .get(10, TimeUnit.SECONDS);
  }

  /** Answers each connection with a head without Content-Length, the body, then the close. */
  private static void serveClosing() {
    while (!closing.isClosed()) {
      try (Socket connection = closing.accept()) {
        InputStream in = connection.getInputStream();
        int last = 0;
        for (int read = 0; read < 16 * 1024 && last != 0x0d0a0d0a; read++) {
          int b = in.read();
          if (b < 0) {
            break;
          }
          last = (last << 8) | b;
        }
        OutputStream out = connection.getOutputStream();
        out.write(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        out.write(CLOSED_BODY);
        out.flush();
      } catch (IOException e) {
        // closed, or the client went away: the next connection
      }
    }
  }
}
