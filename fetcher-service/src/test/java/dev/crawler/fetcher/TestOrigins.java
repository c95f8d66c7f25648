package dev.crawler.fetcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Several origins on 127.0.0.1 (one Jetty server, one connector, so one port, per origin) that
 * record when each request to them started and ended, so tests can check politeness from the
 * server's side. Each origin answers by a {@link Site}: robots.txt as configured, and paths by
 * their first segment.
 */
public final class TestOrigins implements AutoCloseable {

  /**
   * One request as the server saw it: its path and when it started and ended, in milliseconds of
   * the server's System.nanoTime.
   */
  public record Hit(String path, long startMillis, long endMillis) {}

  /** What an origin answers. */
  public static final class Site {
    String robots = "";
    int robotsStatus = 404;
    long robotsDelayMillis;
    long pageMillis;
    int rateLimited;
    String retryAfter = "1";

    /** Robots.txt answers this body with 200. */
    public Site robots(String body) {
      this.robots = body;
      this.robotsStatus = 200;
      return this;
    }

    /** Robots.txt answers this status (404, 500…). */
    public Site robotsStatus(int status) {
      this.robotsStatus = status;
      return this;
    }

    /** Robots.txt takes this long to answer. */
    public Site robotsDelay(long millis) {
      this.robotsDelayMillis = millis;
      return this;
    }

    /** Pages take this long to answer. */
    public Site slow(long millis) {
      this.pageMillis = millis;
      return this;
    }

    /** The first {@code count} page requests are answered 429 with this Retry-After. */
    public Site rateLimited(int count, String retryAfter) {
      this.rateLimited = count;
      this.retryAfter = retryAfter;
      return this;
    }
  }

  private final Server server;
  private final Map<String, Site> sites = new HashMap<>();
  private final Map<String, List<Hit>> hits = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> pageRequests = new ConcurrentHashMap<>();
  private final List<ServerSocket> rawServers = new ArrayList<>();

  /** The sites' origins, in the order the sites were given. */
  private final List<String> order = new ArrayList<>();

  private TestOrigins(Server server) {
    this.server = server;
  }

  /** Starts one origin per site; returns them with their origins in order. */
  public static TestOrigins start(List<Site> sites) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(Math.max(64, 32 + sites.size() * 4), 4);
    threads.setName("test-origins");
    threads.setDaemon(true);
    Server server = new Server(threads);
    TestOrigins origins = new TestOrigins(server);
    List<ServerConnector> connectors = new ArrayList<>();
    for (int i = 0; i < sites.size(); i++) {
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      server.addConnector(connector);
      connectors.add(connector);
    }
    server.setHandler(origins.new Answering());
    server.start();
    for (int i = 0; i < sites.size(); i++) {
      origins.sites.put(originOf(connectors.get(i).getLocalPort()), sites.get(i));
    }
    origins.order.addAll(connectors.stream().map(c -> originOf(c.getLocalPort())).toList());
    return origins;
  }

  /** The origin of the i-th site. */
  public String origin(int i) {
    return order.get(i);
  }

  /** The requests an origin saw, in the order they started. */
  public List<Hit> hits(String origin) {
    List<Hit> list = new ArrayList<>(hits.getOrDefault(origin, List.of()));
    list.sort(Comparator.comparingLong(Hit::startMillis));
    return list;
  }

  /**
   * The shortest time between the end of one request and the start of the next to the origin; a
   * negative value means two requests overlapped.
   */
  public long smallestGap(String origin) {
    List<Hit> list = hits(origin);
    long smallest = Long.MAX_VALUE;
    for (int i = 1; i < list.size(); i++) {
      smallest = Math.min(smallest, list.get(i).startMillis() - list.get(i - 1).endMillis());
    }
    return smallest;
  }

  /**
   * An origin on a raw socket that answers every connection with these bytes and closes it (a
   * server that talks gibberish, or a body cut short).
   */
  public String raw(Function<String, byte[]> answer) throws IOException {
    ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    rawServers.add(socket);
    Thread thread =
        new Thread(
            () -> {
              while (!socket.isClosed()) {
                try (Socket client = socket.accept()) {
                  byte[] buffer = new byte[8192];
                  int read = client.getInputStream().read(buffer);
                  String request =
                      read > 0 ? new String(buffer, 0, read, StandardCharsets.ISO_8859_1) : "";
                  String path = request.split(" ", 3).length > 1 ? request.split(" ", 3)[1] : "/";
                  OutputStream out = client.getOutputStream();
                  out.write(answer.apply(path));
                  out.flush();
                } catch (IOException e) {
                  // closed, or the client went away
                }
              }
            },
            "raw-origin");
    thread.setDaemon(true);
    thread.start();
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  @Override
  public void close() throws IOException {
    for (ServerSocket socket : rawServers) {
      socket.close();
    }
    try {
      server.stop();
    } catch (Exception e) {
      throw new IOException("cannot stop the test origins", e);
    }
  }

  private static String originOf(int port) {
    return "http://127.0.0.1:" + port;
  }

  private static long nowMillis() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  private static final byte[] BOMB;

  static {
    try {
      BOMB = gzip(new byte[64 * 1024 * 1024]);
    } catch (IOException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final class Answering extends Handler.Abstract {

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      long start = nowMillis();
      String origin = originOf(Request.getLocalPort(request));
      Site site = sites.getOrDefault(origin, new Site());
      String path = request.getHttpURI().getPathQuery();
      // the end is taken as the response starts to be written: the client cannot have it sooner,
      // so a gap measured here is never longer than the one the fetcher kept
      Supplier<Callback> recording =
          () -> {
            long end = nowMillis();
            return Callback.from(
                () -> {
                  hits.computeIfAbsent(origin, o -> new CopyOnWriteArrayList<>())
                      .add(new Hit(path, start, end));
                  callback.succeeded();
                },
                callback::failed);
          };
      if (path.equals("/robots.txt")) {
        pause(site.robotsDelayMillis);
        response.setStatus(site.robotsStatus);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(
            true, ByteBuffer.wrap(site.robots.getBytes(StandardCharsets.UTF_8)), recording.get());
        return true;
      }
      if (path.equals("/.well-known/tdmrep.json")) {
        response.setStatus(404); // as on most sites: no TDM reservation stated
        response.write(true, null, recording.get());
        return true;
      }
      pause(site.pageMillis);
      if (pageRequests.computeIfAbsent(origin, o -> new AtomicInteger()).incrementAndGet()
          <= site.rateLimited) {
        response.setStatus(429);
        response.getHeaders().put("Retry-After", site.retryAfter);
        response.write(true, null, recording.get());
        return true;
      }
      String first = path.split("/").length > 1 ? path.split("/")[1] : "";
      switch (first) {
        case "moved" -> {
          // /moved/N redirects N times, then to a page
          int hops = Integer.parseInt(path.split("/")[2]);
          response.setStatus(hops % 2 == 0 ? 302 : 301);
          response
              .getHeaders()
              .put(
                  HttpHeader.LOCATION, hops > 1 ? "/moved/" + (hops - 1) : "/page/after-redirects");
          response.write(true, null, recording.get());
        }
        case "loop" -> {
          response.setStatus(302);
          response
              .getHeaders()
              .put(HttpHeader.LOCATION, path.endsWith("/a") ? "/loop/b" : "/loop/a");
          response.write(true, null, recording.get());
        }
        case "bomb" -> {
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
          response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
          response.write(true, ByteBuffer.wrap(BOMB), recording.get());
        }
        case "gzipped" -> {
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
          response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
          response.write(
              true,
              ByteBuffer.wrap(
                  gzip(
                      ("<html><body>gzipped " + path + "</body></html>")
                          .getBytes(StandardCharsets.UTF_8))),
              recording.get());
        }
        case "file.pdf" -> {
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/pdf");
          response.write(true, ByteBuffer.wrap(new byte[2048]), recording.get());
        }
        default -> {
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=UTF-8");
          String html =
              "<html><head><title>"
                  + path
                  + "</title></head><body><a href=\"/page/next\">next</a></body></html>";
          response.write(
              true, ByteBuffer.wrap(html.getBytes(StandardCharsets.UTF_8)), recording.get());
        }
      }
      return true;
    }

    private void pause(long millis) throws InterruptedException {
      if (millis > 0) {
        Thread.sleep(millis); // a slow server, on the test server's own thread
      }
    }
  }
}
