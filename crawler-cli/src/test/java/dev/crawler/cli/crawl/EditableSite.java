package dev.crawler.cli.crawl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An HTML site on one or more origins of 127.0.0.1 (one port each) that a test edits between
 * crawls: {@link #pages()} maps a path (with its query) to the page's HTML, served by every origin,
 * in which {@code {origin}} is replaced by the origin answering and {@code {visit}} by the
 * how-many-th request for that page this is. Everything else (robots.txt, sitemap.xml, removed
 * pages) is 404. Started when made; as a JUnit extension ({@code @RegisterExtension}) it stops
 * after each test.
 */
public final class EditableSite implements AfterEachCallback, AutoCloseable {

  private final Map<String, String> pages = new ConcurrentHashMap<>();

  /** Files served as they are, by path: their media type and bytes. */
  private final Map<String, File> files = new ConcurrentHashMap<>();

  /**
   * A file a test serves: its {@code Content-Type}, its bytes as sent, more response fields, and
   * whether it goes chunked (in two pieces, without a {@code Content-Length}).
   */
  public record File(
      String contentType, byte[] body, Map<String, String> headers, boolean chunked) {

    public File(String contentType, byte[] body) {
      this(contentType, body, Map.of(), false);
    }
  }

  /** Requests per page, by origin + path. */
  private final Map<String, AtomicInteger> visits = new ConcurrentHashMap<>();

  private final Server server = new Server();
  private final List<String> urls = new ArrayList<>();

  /** Every page served, in order: origin and when. */
  private final List<Served> served = Collections.synchronizedList(new ArrayList<>());

  /** A page served: its origin, when ({@link System#nanoTime()}), and the User-Agent that asked. */
  public record Served(String origin, String path, long nanoTime, String agent) {}

  /** A site on one origin. */
  public EditableSite() {
    this(1);
  }

  /** A site on {@code origins} origins serving the same pages. */
  public EditableSite(int origins) {
    List<ServerConnector> connectors = new ArrayList<>();
    for (int i = 0; i < origins; i++) {
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      server.addConnector(connector);
      connectors.add(connector);
    }
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPathQuery();
            File file = files.get(path);
            if (file != null) {
              served.add(
                  new Served(
                      "http://127.0.0.1:" + Request.getLocalPort(request),
                      path,
                      System.nanoTime(),
                      ""));
              response.getHeaders().put(HttpHeader.CONTENT_TYPE, file.contentType());
              file.headers().forEach(response.getHeaders()::put);
              if (file.chunked()) {
                int half = file.body().length / 2;
                Callback.Completable first = new Callback.Completable();
                response.write(false, ByteBuffer.wrap(file.body(), 0, half), first);
                try {
                  first.get();
                } catch (Exception e) {
                  callback.failed(e);
                  return true;
                }
                response.write(
                    true, ByteBuffer.wrap(file.body(), half, file.body().length - half), callback);
              } else {
                response.write(true, ByteBuffer.wrap(file.body()), callback);
              }
              return true;
            }
            String html = pages.get(path);
            if (html == null) {
              response.setStatus(404);
              callback.succeeded();
              return true;
            }
            String origin = "http://127.0.0.1:" + Request.getLocalPort(request);
            int visit =
                visits.computeIfAbsent(origin + path, p -> new AtomicInteger()).incrementAndGet();
            String agent = request.getHeaders().get(HttpHeader.USER_AGENT);
            served.add(new Served(origin, path, System.nanoTime(), agent == null ? "" : agent));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
            String body =
                html.replace("{origin}", origin).replace("{visit}", Integer.toString(visit));
            response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
          }
        });
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test site", e);
    }
    connectors.forEach(connector -> urls.add("http://127.0.0.1:" + connector.getLocalPort()));
  }

  /** The first origin, without a trailing slash. */
  public String url() {
    return urls.get(0);
  }

  /** Every origin, without a trailing slash. */
  public List<String> urls() {
    return List.copyOf(urls);
  }

  /** Path (and query) to HTML; edit it to change the site. */
  public Map<String, String> pages() {
    return pages;
  }

  /** Path (and query) to a file served as it is. */
  public Map<String, File> files() {
    return files;
  }

  /** How many requests a path of the first origin got. */
  public int visits(String path) {
    AtomicInteger count = visits.get(url() + path);
    return count == null ? 0 : count.get();
  }

  /** Every page served so far, in order. */
  public List<Served> served() {
    synchronized (served) {
      return List.copyOf(served);
    }
  }

  /** Whether every origin served a page after this moment ({@link System#nanoTime()}). */
  public boolean isEveryOriginServedSince(long nanoTime) {
    Set<String> origins = new HashSet<>();
    for (Served page : served()) {
      if (page.nanoTime() > nanoTime) {
        origins.add(page.origin());
      }
    }
    return origins.containsAll(urls);
  }

  /** The shortest time between two requests to one origin so far, in nanoseconds. */
  public long closestRequestsToOneOrigin() {
    Map<String, Long> last = new HashMap<>();
    long closest = Long.MAX_VALUE;
    for (Served page : served()) {
      Long previous = last.put(page.origin(), page.nanoTime());
      if (previous != null) {
        closest = Math.min(closest, page.nanoTime() - previous);
      }
    }
    return closest;
  }

  /** When each request to the origin came ({@link System#nanoTime()}), robots.txt aside. */
  public List<Long> requestTimes(String origin) {
    List<Long> times = new ArrayList<>();
    for (Served each : served()) {
      if (each.origin().equals(origin) && !each.path().equals("/robots.txt")) {
        times.add(each.nanoTime());
      }
    }
    return times;
  }

  /** Requests per page served, by URL (origin + path). */
  public Map<String, Integer> requests() {
    Map<String, Integer> requests = new TreeMap<>();
    visits.forEach((url, count) -> requests.put(url, count.get()));
    return requests;
  }

  /**
   * On every origin, a home page linking {@code count} pages {@code /page/1…}, each with {@code
   * extra} HTML after its text; titles name the origin.
   *
   * @return the URLs of every page of every origin, home pages included
   */
  public Set<String> addLinkedPages(int count, String extra) {
    StringBuilder links = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      links.append("<a href=\"/page/").append(i).append("\">page ").append(i).append("</a> ");
      pages.put(
          "/page/" + i,
          page("Page " + i + " of {origin}", "The text of page " + i + " on {origin}. " + extra));
    }
    pages.put("/", page("Home of {origin}", links.toString()));
    Set<String> all = new TreeSet<>();
    for (String origin : urls) {
      all.add(origin + "/");
      for (int i = 1; i <= count; i++) {
        all.add(origin + "/page/" + i);
      }
    }
    return all;
  }

  /** A page with a title and a paragraph of HTML. */
  public static String page(String title, String body) {
    return "<!DOCTYPE html><html><head><title>"
        + title
        + "</title></head><body><p>"
        + body
        + "</p></body></html>";
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    close();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
