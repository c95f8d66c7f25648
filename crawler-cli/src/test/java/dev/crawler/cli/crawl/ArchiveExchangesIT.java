package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cli.CrawlerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;

/**
 * {@code crawler crawl --warc DIR} archives every exchange the fetcher makes with its body as the
 * server sent it: a page, robots.txt, tdmrep.json, sitemap.xml, a 301 recorded and a 302 followed
 * (each with a body), a 404 and a 500 with bodies, the HEAD that option {@code head: optional}
 * sends first, bodies delimited by the connection's close (a plain socket server, as Jetty frames
 * what it sends), and bodies over {@code fetcher.max.body.bytes}, with and without a
 * Content-Length, cut there and marked {@code WARC-Truncated: length}. Every record has its {@code
 * WARC-IP-Address}, every response its body byte for byte and the digest of that body, and the
 * files pass jwarc's {@code validate}.
 */
class ArchiveExchangesIT {

  /** The crawl's {@code fetcher.max.body.bytes}: the big bodies are cut here. */
  private static final int MAX_BODY_BYTES = 4096;

  private static final byte[] BIG = big();

  @TempDir Path work;

  private final Server server = new Server();
  private ServerConnector connector;
  private ClosingServer closing;

  /** What the Jetty site serves, by path. */
  private final Map<String, Served> site = new HashMap<>();

  /**
   * A response of the site: status, fields, body, and whether it goes chunked (no Content-Length).
   */
  private record Served(int status, Map<String, String> headers, byte[] body, boolean chunked) {

    static Served of(int status, String contentType, String body, String... headers) {
      Map<String, String> fields = new HashMap<>();
      fields.put("Content-Type", contentType);
      for (int i = 0; i < headers.length; i += 2) {
        fields.put(headers[i], headers[i + 1]);
      }
      return new Served(status, fields, body.getBytes(StandardCharsets.UTF_8), false);
    }
  }

  @BeforeEach
  void start() throws Exception {
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            Served served = site.get(request.getHttpURI().getPathQuery());
            if (served == null) {
              response.setStatus(404);
              callback.succeeded();
              return true;
            }
            response.setStatus(served.status());
            served.headers().forEach(response.getHeaders()::put);
            if (request.getMethod().equals("HEAD")) {
              response.getHeaders().put(HttpHeader.CONTENT_LENGTH, served.body().length);
              callback.succeeded();
            } else if (served.chunked()) {
              int half = served.body().length / 2;
              Callback.Completable first = new Callback.Completable();
              response.write(false, ByteBuffer.wrap(served.body(), 0, half), first);
              first.whenComplete(
                  (ignored, failure) -> {
                    if (failure != null) {
                      callback.failed(failure);
                    } else {
                      response.write(
                          true,
                          ByteBuffer.wrap(served.body(), half, served.body().length - half),
                          callback);
                    }
                  });
            } else {
              response.getHeaders().put(HttpHeader.CONTENT_LENGTH, served.body().length);
              response.write(true, ByteBuffer.wrap(served.body()), callback);
            }
            return true;
          }
        });
    server.start();
    closing = new ClosingServer();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
    closing.close();
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void archivesEveryExchangeWithItsBodyAsSent() throws Exception {
    String base = "http://127.0.0.1:" + connector.getLocalPort();
    String home =
        EditableSite.page(
            "Home",
            "<a href=\"/plain\">plain</a> <a href=\"/moved\">moved</a> <a href=\"/missing\">missing</a>"
                + " <a href=\"/error\">error</a> <a href=\"/head\">head</a> <a href=\"/follow\">follow</a>"
                + " <a href=\"/big\">big</a> <a href=\"/big-chunked\">big chunked</a>");
    site.put("/", Served.of(200, "text/html; charset=UTF-8", home));
    site.put("/robots.txt", Served.of(200, "text/plain", "User-agent: *\nDisallow: /private/\n"));
    site.put(
        "/.well-known/tdmrep.json",
        Served.of(
            200, "application/json", "[{\"location\": \"/private/\", \"tdm-reservation\": 1}]"));
    site.put(
        "/sitemap.xml",
        Served.of(
            200,
            "application/xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
                + base
                + "/plain</loc></url></urlset>\n"));
    site.put(
        "/plain",
        Served.of(200, "text/html; charset=UTF-8", EditableSite.page("Plain", "a plain page")));
    site.put(
        "/moved",
        Served.of(
            301,
            "text/html; charset=UTF-8",
            EditableSite.page("Moved", "<a href=\"/plain\">moved to /plain</a>"),
            "Location",
            "/plain"));
    site.put(
        "/missing",
        Served.of(
            404,
            "text/html; charset=UTF-8",
            EditableSite.page("Not found", "no page here, sorry")));
    site.put("/error", Served.of(500, "text/plain", "the server broke while answering\n"));
    site.put(
        "/head",
        Served.of(
            200, "text/html; charset=UTF-8", EditableSite.page("Head", "asked with HEAD first")));
    site.put(
        "/follow",
        Served.of(
            302,
            "text/html; charset=UTF-8",
            EditableSite.page("Found", "<a href=\"/followed\">over there</a>"),
            "Location",
            "/followed"));
    site.put(
        "/followed",
        Served.of(
            200, "text/html; charset=UTF-8", EditableSite.page("Followed", "reached by a 302")));
    site.put("/big", new Served(200, Map.of("Content-Type", "text/plain"), BIG, false));
    site.put("/big-chunked", new Served(200, Map.of("Content-Type", "text/plain"), BIG, true));
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"),
            """
            rules:
              - apply-for: {path-prefix: /head}
                options: {head: optional}
              - apply-for: {path-prefix: /follow}
                options: {redirects: follow 2}
            """);
    Path settings =
        Files.writeString(
            work.resolve("crawler.properties"), "fetcher.max.body.bytes=" + MAX_BODY_BYTES + "\n");
    Path warc = work.resolve("warc");

    int exit =
        CrawlerCli.run(
            "crawl",
            base + "/",
            closing.url() + "/close",
            "--config",
            config.toString(),
            "--settings",
            settings.toString(),
            "--delay-ms",
            "0",
            "--data-dir",
            work.resolve("data").toString(),
            "--warc",
            warc.toString());

    assertThat(exit).isZero();
    List<Path> files;
    try (Stream<Path> listed = Files.list(warc)) {
      files = listed.sorted().toList();
    }
    assertThat(files).isNotEmpty();
    assertThat(ArchiveIT.validate(files)).as("jwarc validate").isZero();

    List<Captured> captured = read(files);
    Map<String, byte[]> sent = new HashMap<>();
    site.forEach((path, served) -> sent.put(base + path, served.body()));
    closing.served().forEach((path, body) -> sent.put(closing.url() + path, body));
    StringBuilder table = new StringBuilder("\nmethod url status sent archived truncated ip\n");
    for (Captured each : captured) {
      table
          .append(each.method())
          .append(' ')
          .append(each.url())
          .append(' ')
          .append(each.status())
          .append(' ')
          .append(
              each.method().equals("HEAD")
                  ? 0
                  : sent.containsKey(each.url()) ? sent.get(each.url()).length : -1)
          .append(' ')
          .append(each.body().length)
          .append(' ')
          .append(each.truncated())
          .append(' ')
          .append(each.hasIp())
          .append('\n');
    }
    System.out.println(table);

    List<String> urls = captured.stream().map(c -> c.method() + " " + c.url()).toList();
    assertThat(urls)
        .as(table.toString())
        .contains(
            "GET " + base + "/",
            "GET " + base + "/robots.txt",
            "GET " + base + "/.well-known/tdmrep.json",
            "GET " + base + "/sitemap.xml",
            "GET " + base + "/plain",
            "GET " + base + "/moved",
            "GET " + base + "/missing",
            "GET " + base + "/error",
            "HEAD " + base + "/head",
            "GET " + base + "/head",
            "GET " + base + "/follow",
            "GET " + base + "/followed",
            "GET " + base + "/big",
            "GET " + base + "/big-chunked",
            "GET " + closing.url() + "/robots.txt",
            "GET " + closing.url() + "/sitemap.xml",
            "GET " + closing.url() + "/close");
    for (Captured each : captured) {
      String what = each.method() + " " + each.url() + table;
      assertThat(each.hasIp()).as("WARC-IP-Address of " + what).isTrue();
      assertThat(each.requestHasIp()).as("the request's WARC-IP-Address of " + what).isTrue();
      assertThat(each.payloadDigest())
          .as("WARC-Payload-Digest of " + what)
          .isEqualTo(sha1(each.body()));
      byte[] expected = each.method().equals("HEAD") ? new byte[0] : sent.get(each.url());
      if (each.url().endsWith("/big") || each.url().endsWith("/big-chunked")) {
        assertThat(each.truncated()).as(what).isEqualTo(WarcTruncationReason.LENGTH);
        expected = Arrays.copyOf(BIG, MAX_BODY_BYTES);
      } else {
        assertThat(each.truncated()).as(what).isEqualTo(WarcTruncationReason.NOT_TRUNCATED);
      }
      assertThat(each.body()).as("the body of " + what).isEqualTo(expected);
    }
  }

  /** A response record, the method of its request and whether both name the peer's address. */
  private record Captured(
      String method,
      String url,
      int status,
      byte[] body,
      WarcTruncationReason truncated,
      boolean hasIp,
      boolean requestHasIp,
      String payloadDigest) {}

  /** A request record: its method and whether it names the peer's address. */
  private record Sent(String method, boolean hasIp) {}

  /** Every response record with its request, each read as the reader passes it. */
  private static List<Captured> read(List<Path> files) throws IOException {
    Map<URI, Sent> requests = new HashMap<>();
    Map<URI, Captured> responses = new HashMap<>();
    for (Path file : files) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (record instanceof WarcRequest request) {
            requests.put(
                request.id(), new Sent(request.http().method(), request.ipAddress().isPresent()));
          } else if (record instanceof WarcResponse response) {
            responses.put(
                response.concurrentTo().get(0),
                new Captured(
                    "",
                    response.target(),
                    response.http().status(),
                    response.http().body().stream().readAllBytes(),
                    response.truncated(),
                    response.ipAddress().isPresent(),
                    false,
                    response.payloadDigest().map(WarcDigest::base32).orElse("")));
          }
        }
      }
    }
    List<Captured> captured = new ArrayList<>();
    responses.forEach(
        (requestId, response) -> {
          Sent request = requests.get(requestId);
          assertThat(request).as("the request of " + response.url()).isNotNull();
          captured.add(
              new Captured(
                  request.method(),
                  response.url(),
                  response.status(),
                  response.body(),
                  response.truncated(),
                  response.hasIp(),
                  request.hasIp(),
                  response.payloadDigest()));
        });
    captured.sort(Comparator.comparing(Captured::url).thenComparing(Captured::method));
    return captured;
  }

  private static String sha1(byte[] bytes) throws Exception {
    return new WarcDigest("sha1", MessageDigest.getInstance("SHA-1").digest(bytes)).base32();
  }

  private static byte[] big() {
    byte[] bytes = new byte[10_000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ('a' + i % 26);
    }
    return bytes;
  }

  /**
   * An origin on a plain server socket of 127.0.0.1 that answers every request with a body
   * delimited by the connection's close: no Content-Length, no chunked coding ({@code /close} a
   * page, everything else a 404 with a body). One connection at a time; each request head is read
   * up to 16 KiB.
   */
  private static final class ClosingServer implements AutoCloseable {

    private final ServerSocket socket;
    private final Thread thread;
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();

    ClosingServer() throws IOException {
      socket = new ServerSocket();
      socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
      thread = new Thread(this::serve, "closing-server");
      thread.setDaemon(true);
      thread.start();
    }

    String url() {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** The bodies sent, by path. */
    Map<String, byte[]> served() {
      return Map.copyOf(served);
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket connection = socket.accept()) {
          String path = path(connection.getInputStream());
          boolean isPage = path.equals("/close");
          byte[] body =
              (isPage
                      ? EditableSite.page("Closed", "a body that ends when the connection closes")
                      : "nothing at " + path + " (the body ends with the connection)\n")
                  .getBytes(StandardCharsets.UTF_8);
          String head =
              (isPage ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n")
                  + "Content-Type: "
                  + (isPage ? "text/html; charset=UTF-8" : "text/plain")
                  + "\r\nConnection: close\r\n\r\n";
          OutputStream out = connection.getOutputStream();
          out.write(head.getBytes(StandardCharsets.ISO_8859_1));
          out.write(body);
          out.flush();
          served.put(path, body);
        } catch (IOException e) {
          // closed, or the client went away: the next connection
        }
      }
    }

    /** The path of the request line; the request's head read to its end. */
    private static String path(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int last = 0; // the last four bytes read
      while (head.size() < 16 * 1024 && last != 0x0d0a0d0a) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        head.write(b);
        last = (last << 8) | b;
      }
      String[] line = head.toString(StandardCharsets.ISO_8859_1).split(" ", 3);
      return line.length > 1 ? line[1] : "/";
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
