package dev.crawler.render;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A Jetty server on 127.0.0.1 serving the test pages set on it; it records each path asked, and
 * answers 304 to an If-None-Match naming a page's ETag.
 */
public final class TestSite implements AutoCloseable {

  /** One page: its status, headers and body. */
  public record Page(int status, Map<String, String> headers, String body) {

    public static Page html(String body) {
      return new Page(200, Map.of("Content-Type", "text/html; charset=utf-8"), body);
    }

    public static Page of(String contentType, String body) {
      return new Page(200, Map.of("Content-Type", contentType), body);
    }
  }

  private final Server server = new Server();
  private final ServerConnector connector = new ServerConnector(server);
  private final Map<String, Page> pages = new ConcurrentHashMap<>();
  private final List<String> requested = new CopyOnWriteArrayList<>();
  private final List<String> userAgents = new CopyOnWriteArrayList<>();

  public TestSite() throws Exception {
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPathQuery();
            requested.add(path);
            String agent = request.getHeaders().get(HttpHeader.USER_AGENT);
            userAgents.add(agent == null ? "" : agent);
            Page page = pages.get(path);
            if (page == null) {
              page = new Page(404, Map.of("Content-Type", "text/plain"), "not found");
            }
            String etag = page.headers().get("ETag");
            if (etag != null && etag.equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
              response.setStatus(304); // a conditional request for the version held
              response.getHeaders().put("ETag", etag);
              callback.succeeded();
              return true;
            }
            response.setStatus(page.status());
            page.headers().forEach((name, value) -> response.getHeaders().put(name, value));
            response.write(
                true, ByteBuffer.wrap(page.body().getBytes(StandardCharsets.UTF_8)), callback);
            return true;
          }
        });
    server.start();
  }

  /** Serves {@code page} at {@code path} (path and query). */
  public TestSite serve(String path, Page page) {
    pages.put(path, page);
    return this;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String origin() {
    return "http://127.0.0.1:" + connector.getLocalPort();
  }

  public String url(String path) {
    return origin() + path;
  }

  /** The paths asked for, in order. */
  public List<String> requested() {
    return List.copyOf(requested);
  }

  /** The User-Agent of every request, in order. */
  public List<String> userAgents() {
    return List.copyOf(userAgents);
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the test site", e);
    }
  }
}
