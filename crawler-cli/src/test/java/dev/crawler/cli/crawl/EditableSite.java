package dev.crawler.cli.crawl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A one-origin HTML site on 127.0.0.1 that a test edits between crawls: {@link #pages()} maps a path
 * (with its query) to the page's HTML, in which {@code {visit}} is replaced by the how-many-th request
 * for that path this is. Everything else (robots.txt, sitemap.xml, removed pages) is 404.
 */
final class EditableSite implements AutoCloseable {

  private final Map<String, String> pages = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> visits = new ConcurrentHashMap<>();
  private final Server server = new Server();
  private final String url;

  EditableSite() throws Exception {
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPathQuery();
            String html = pages.get(path);
            if (html == null) {
              response.setStatus(404);
              callback.succeeded();
              return true;
            }
            int visit = visits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
            response.write(true, ByteBuffer.wrap(html.replace("{visit}", Integer.toString(visit)).getBytes(StandardCharsets.UTF_8)), callback);
            return true;
          }
        });
    server.start();
    url = "http://127.0.0.1:" + connector.getLocalPort();
  }

  /** The site's origin, without a trailing slash. */
  String url() {
    return url;
  }

  /** Path (and query) to HTML; edit it to change the site. */
  Map<String, String> pages() {
    return pages;
  }

  /** How many requests a path got. */
  int visits(String path) {
    AtomicInteger count = visits.get(path);
    return count == null ? 0 : count.get();
  }

  /** A page with a title and a paragraph of HTML. */
  static String page(String title, String body) {
    return "<!DOCTYPE html><html><head><title>" + title + "</title></head><body><p>" + body + "</p></body></html>";
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
