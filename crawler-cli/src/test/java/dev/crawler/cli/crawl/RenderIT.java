package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import dev.crawler.render.TestBrowser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages built by JavaScript, crawled end to end with {@code crawler crawl --render auto} and a real
 * headless browser: an application origin whose links exist only once its scripts ran (links built
 * in script, text from a {@code fetch()} of JSON, a link added after a timer), a page that loops
 * forever, one that tries to reach another loopback address and one that opens a WebSocket, beside
 * a static origin in the same crawl that must not be rendered. Skipped with one line when no
 * browser is installed; in CI, where one is, it must run.
 */
class RenderIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** An application page: an empty root its script fills. */
  private static final String APP =
      "<!DOCTYPE html><html><head><title>app</title></head><body><div id=\"app\"></div>"
          + "<script src=\"/app.js\"></script></body></html>";

  @TempDir Path work;

  private final Server server = new Server();
  private final AtomicInteger internalRequests = new AtomicInteger();
  private final AtomicInteger socketConnections = new AtomicInteger();
  private ServerConnector app;
  private ServerConnector plain;
  private ServerConnector internal;
  private ServerSocket webSocketTarget;
  private Thread acceptor;

  @BeforeEach
  void start() throws Exception {
    TestBrowser.require();
    app = connector("127.0.0.1");
    plain = connector("127.0.0.3");
    internal = connector("127.0.0.2");
    webSocketTarget = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    acceptor =
        new Thread(
            () -> {
              while (!webSocketTarget.isClosed()) {
                try (Socket socket = webSocketTarget.accept()) {
                  socketConnections.incrementAndGet();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "websocket-target");
    acceptor.start();
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            int port = Request.getLocalPort(request);
            String path = request.getHttpURI().getPath();
            if (port == internal.getLocalPort()) {
              internalRequests.incrementAndGet();
              return send(response, callback, "text/plain", "internal");
            }
            if (port == plain.getLocalPort()) {
              return switch (path) {
                case "/" -> html(response, callback, "<p>A static home.</p><a href=\"/s1\">s1</a>");
                case "/s1" -> html(response, callback, "<p>A static page of its own.</p>");
                default -> notFound(response, callback);
              };
            }
            return switch (path) {
              case "/", "/a", "/b", "/late", "/loop", "/escape", "/ws" ->
                  send(response, callback, "text/html", APP);
              case "/app.js" -> send(response, callback, "text/javascript", script());
              case "/data.json" ->
                  send(response, callback, "application/json", "{\"text\": \"loaded from json\"}");
              default -> notFound(response, callback);
            };
          }
        });
    server.start();
  }

  /**
   * The application: on {@code /} it builds the links; every page fetches its text; {@code /loop}
   * never yields, {@code /escape} reaches for 127.0.0.2, {@code /ws} opens a WebSocket.
   */
  private String script() {
    String secret = "http://127.0.0.2:" + internal.getLocalPort();
    return "const root = document.getElementById('app');\n"
        + "const path = location.pathname;\n"
        + "if (path === '/loop') { while (true) {} }\n"
        + "if (path === '/escape') {\n"
        + "  fetch('"
        + secret
        + "/steal').catch(() => {});\n"
        + "  const img = document.createElement('img'); img.src = '"
        + secret
        + "/pixel'; document.body.appendChild(img);\n"
        + "}\n"
        + "if (path === '/ws') {\n"
        + "  try { new WebSocket('ws://127.0.0.1:"
        + webSocketTarget.getLocalPort()
        + "/'); } catch (e) {}\n"
        + "}\n"
        + "fetch('/data.json').then(r => r.json()).then(data => {\n"
        + "  const p = document.createElement('p');\n"
        + "  p.textContent = 'Page ' + path + ': ' + data.text + '.';\n"
        + "  root.appendChild(p);\n"
        + "  if (path === '/') {\n"
        + "    for (const to of ['/a', '/b', '/loop', '/escape', '/ws']) {\n"
        + "      const a = document.createElement('a'); a.href = to; a.textContent = to;\n"
        + "      root.appendChild(a);\n"
        + "    }\n"
        + "    setTimeout(() => {\n"
        + "      const late = document.createElement('a'); late.href = '/late';\n"
        + "      late.textContent = 'late'; root.appendChild(late);\n"
        + "    }, 300);\n"
        + "  }\n"
        + "});\n";
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
    webSocketTarget.close();
    acceptor.join(5_000);
  }

  @Test
  void rendersThePagesBuiltByScriptsAndOnlyThoseSafely() throws Exception {
    String appOrigin = "http://127.0.0.1:" + app.getLocalPort();
    String plainOrigin = "http://127.0.0.3:" + plain.getLocalPort();
    Path settings =
        Files.writeString(
            work.resolve("crawler.properties"),
            "render.max.wait.ms=4000\nrender.quiet.window.ms=300\n");

    int exit =
        CrawlerCli.run(
            new String[] {
              "crawl",
              appOrigin + "/",
              plainOrigin + "/",
              "--render",
              "auto",
              "--settings",
              settings.toString(),
              "--delay-ms",
              "50",
              "--data-dir",
              work.resolve("data").toString(),
              "--out",
              work.resolve("documents.jsonl").toString(),
              "--crawl-log",
              work.resolve("log.jsonl").toString()
            });

    assertThat(exit).isZero();
    Map<String, JsonNode> documents = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("documents.jsonl"))) {
      documents.put(line.get("url").asText(), line);
    }
    for (String page : List.of("/", "/a", "/b", "/late", "/escape", "/ws")) {
      JsonNode document = documents.get(appOrigin + page);
      assertThat(document).as("the rendered page " + page).isNotNull();
      assertThat(document.get("rendered").asBoolean()).as(page + " rendered").isTrue();
      assertThat(document.get("text").asText()).contains("Page " + page + ": loaded from json.");
    }
    JsonNode still = documents.get(plainOrigin + "/s1");
    assertThat(still).as("the static origin's page").isNotNull();
    assertThat(still.get("rendered").asBoolean()).isFalse();
    assertThat(documents.get(plainOrigin + "/").get("rendered").asBoolean()).isFalse();
    Map<String, String> outcomes = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("log.jsonl"))) {
      outcomes.merge(
          line.get("url").asText(),
          line.get("outcome").asText(),
          (first, second) -> first + "," + second);
    }
    assertThat(outcomes.get(appOrigin + "/loop")).contains("RENDER_TIMEOUT");
    assertThat(outcomes.get(appOrigin + "/")).contains("RENDER_NEEDED");
    assertThat(outcomes.get(plainOrigin + "/s1")).doesNotContain("RENDER_NEEDED");
    assertThat(internalRequests.get()).as("requests that reached 127.0.0.2").isZero();
    assertThat(socketConnections.get()).as("connections the WebSocket made").isZero();
  }

  private ServerConnector connector(String host) {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    server.addConnector(connector);
    return connector;
  }

  private static boolean html(Response response, Callback callback, String body) {
    return send(
        response,
        callback,
        "text/html",
        "<!DOCTYPE html><html><head><title>page</title></head><body>" + body + "</body></html>");
  }

  private static boolean send(Response response, Callback callback, String type, String body) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type + "; charset=utf-8");
    response.write(true, java.nio.ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    return true;
  }

  private static boolean notFound(Response response, Callback callback) {
    response.setStatus(404);
    callback.succeeded();
    return true;
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
