package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import java.nio.ByteBuffer;
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
 * The address guard end to end: {@code crawler crawl} of a site on 127.0.0.1 whose pages lead to a
 * second loopback address, 127.0.0.2, playing an internal service (a cloud's metadata endpoint, an
 * admin interface): a link to it, a redirect followed within the fetch to it, and robots.txt
 * redirected to it, with a crawl configuration that puts every origin in scope. The crawl allows
 * the address of its seed only; the internal service must see no request, and nothing of it may be
 * published.
 */
class AddressGuardIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  private final Server server = new Server();
  private final AtomicInteger internalRequests = new AtomicInteger();
  private ServerConnector site;
  private ServerConnector internal;

  @BeforeEach
  void start() throws Exception {
    site = connector("127.0.0.1");
    internal = connector("127.0.0.2");
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            if (Request.getLocalPort(request) == internal.getLocalPort()) {
              internalRequests.incrementAndGet();
              return html(response, callback, "<title>internal secret</title>");
            }
            String secret = "http://127.0.0.2:" + internal.getLocalPort();
            return switch (request.getHttpURI().getPath()) {
              case "/robots.txt" -> redirect(response, callback, secret + "/robots.txt");
              case "/" ->
                  html(
                      response,
                      callback,
                      "<title>home</title><a href=\"/ok\">ok</a> <a href=\"/go\">go</a>"
                          + " <a href=\""
                          + secret
                          + "/latest/meta-data/\">metadata</a>");
              case "/ok" -> html(response, callback, "<title>ok</title><p>a public page</p>");
              case "/go" -> redirect(response, callback, secret + "/admin");
              default -> {
                response.setStatus(404);
                callback.succeeded();
                yield true;
              }
            };
          }
        });
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  @Test
  void noRequestReachesAnInternalAddressAndNothingOfItIsPublished() throws Exception {
    String origin = "http://127.0.0.1:" + site.getLocalPort();
    String secret = "http://127.0.0.2:" + internal.getLocalPort();
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"),
            "global: {scope: any, redirects: follow 3, max-depth: 3}\n");

    int exit =
        CrawlerCli.run(
            new String[] {
              "crawl",
              origin + "/",
              "--config",
              config.toString(),
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
    assertThat(internalRequests.get()).as("requests that reached 127.0.0.2").isZero();
    Map<String, JsonNode> log = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("log.jsonl"))) {
      log.put(line.get("url").asText(), line);
    }
    assertThat(log.get(secret + "/latest/meta-data/").get("outcome").asText())
        .isEqualTo("ADDRESS_DENIED");
    assertThat(log.get(secret + "/latest/meta-data/").get("detail").asText())
        .contains("127.0.0.2 is in 127.0.0.0/8 (loopback)");
    assertThat(log.get(origin + "/go").get("outcome").asText()).isEqualTo("ADDRESS_DENIED");
    List<String> published = new ArrayList<>();
    for (JsonNode line : lines(work.resolve("documents.jsonl"))) {
      published.add(line.get("url").asText());
    }
    assertThat(published).containsExactlyInAnyOrder(origin + "/", origin + "/ok");
  }

  private ServerConnector connector(String host) {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    server.addConnector(connector);
    return connector;
  }

  private static boolean html(Response response, Callback callback, String body) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
    response.write(
        true,
        ByteBuffer.wrap(
            ("<!DOCTYPE html><html><body>" + body + "</body></html>")
                .getBytes(StandardCharsets.UTF_8)),
        callback);
    return true;
  }

  private static boolean redirect(Response response, Callback callback, String location) {
    response.setStatus(302);
    response.getHeaders().put(HttpHeader.LOCATION, location);
    callback.succeeded();
    return true;
  }

  private static List<JsonNode> lines(Path file) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
