package dev.crawler.fetcher.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP forward proxy on 127.0.0.1 that records what it is asked to do: a test stand-in for a
 * corporate proxy on loopback. It tunnels {@code CONNECT host:port}, and forwards absolute-form
 * requests ({@code GET http://host:port/path}) in origin-form with {@code Connection: close},
 * streaming the response back with {@code Connection: close} and then closing the connection.
 *
 * <p>Built with credentials, it requires {@code Proxy-Authorization: Basic ...} on every CONNECT or
 * forwarded request, and otherwise answers {@code 407} with {@code Proxy-Authenticate: Basic
 * realm="proxy"} and {@code Content-Length: 0}. After a 407 the connection stays open for a retry
 * on it (a client may as well retry on a new one), unless the request carried a body: then the 407
 * says {@code Connection: close} and the connection is closed. Every request is recorded,
 * authorized or not; {@link #bytesRelayed()} counts the bytes relayed in both directions (through
 * tunnels, or forwarded requests and their responses), not the proxy's own answers.
 */
public final class RecordingHttpProxy implements AutoCloseable {

  /** One request as the proxy received it: header names lower-cased, repeated ones comma-joined. */
  public record Recorded(
      String method, String target, Map<String, String> headers, boolean authorized) {}

  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "keep-alive", "proxy-connection", "proxy-authorization", "upgrade");
  private static final String NO_BODY_CLOSE = "Content-Length: 0\r\nConnection: close\r\n\r\n";

  private final ServerSocket server;
  private final Thread acceptor;
  private final String credentials;
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicLong bytesRelayed = new AtomicLong();

  /** Starts a proxy that asks for no credentials. */
  public RecordingHttpProxy() throws IOException {
    this(null, null);
  }

  /** Starts a proxy that requires Basic credentials {@code user:password}, unless user is null. */
  public RecordingHttpProxy(String user, String password) throws IOException {
    byte[] pair =
        (user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8);
    credentials = user == null ? null : Base64.getEncoder().encodeToString(pair);
    server = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
    acceptor = start(this::acceptLoop, "recording-http-proxy-" + server.getLocalPort());
  }

  /** The port the proxy listens on, on 127.0.0.1. */
  public int port() {
    return server.getLocalPort();
  }

  /** Every request received so far, oldest first (a snapshot). */
  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  /** Bytes relayed so far, both directions together. */
  public long bytesRelayed() {
    return bytesRelayed.get();
  }

  /** Stops listening and closes every connection, client and upstream. */
  @Override
  public void close() throws IOException {
    server.close();
    try {
      acceptor.join(5_000); // the port is free once the blocked accept() has returned
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        start(() -> serve(client), "recording-http-proxy-conn");
      } catch (IOException e) {
        // closed, or one failed accept: the loop condition decides
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      for (List<String> head; (head = readHead(in)) != null; ) {
        String[] line = head.get(0).split(" ");
        Map<String, String> headers = parseHeaders(head);
        String auth = headers.getOrDefault("proxy-authorization", "");
        boolean authorized =
            credentials == null
                || auth.regionMatches(true, 0, "Basic ", 0, 6)
                    && auth.substring(6).trim().equals(credentials);
        requests.add(new Recorded(line[0], line.length > 1 ? line[1] : "", headers, authorized));
        if (line.length != 3) {
          send(out, "HTTP/1.1 400 Bad Request\r\n" + NO_BODY_CLOSE);
        } else if (!authorized) {
          boolean keepOpen =
              contentLength(headers) == 0 && !headers.containsKey("transfer-encoding");
          send(
              out,
              "HTTP/1.1 407 Proxy Authentication Required\r\n"
                  + "Proxy-Authenticate: Basic realm=\"proxy\"\r\n"
                  + (keepOpen ? "Content-Length: 0\r\n\r\n" : NO_BODY_CLOSE));
          if (keepOpen) {
            continue;
          }
        } else if (line[0].equalsIgnoreCase("CONNECT")) {
          tunnel(client, in, line[1]);
        } else {
          forward(client, in, head, headers);
        }
        return;
      }
    } catch (IOException | RuntimeException e) {
      // the client went away, the proxy was closed, or the request was malformed
    } finally {
      sockets.remove(client);
    }
  }

  private void tunnel(Socket client, InputStream in, String target) throws IOException {
    OutputStream out = client.getOutputStream();
    int colon = target.lastIndexOf(':');
    String host = target.substring(0, Math.max(colon, 0)).replace("[", "").replace("]", "");
    Socket upstream = connect(host, target.substring(colon + 1), out);
    if (upstream == null) {
      return;
    }
    try (upstream) {
      send(out, "HTTP/1.1 200 Connection established\r\n\r\n");
      Thread up = start(() -> pump(in, upstream, Long.MAX_VALUE), "recording-http-proxy-up");
      pump(upstream.getInputStream(), client, Long.MAX_VALUE);
      up.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      sockets.remove(upstream);
    }
  }

  private void forward(
      Socket client, InputStream in, List<String> head, Map<String, String> headers)
      throws IOException {
    OutputStream out = client.getOutputStream();
    String[] line = head.get(0).split(" ");
    URI uri = URI.create(line[1]);
    String port = String.valueOf(uri.getPort() == -1 ? 80 : uri.getPort());
    boolean http = "http".equalsIgnoreCase(uri.getScheme());
    Socket upstream = connect(http ? uri.getHost() : null, port, out);
    if (upstream == null) {
      return;
    }
    try (upstream) {
      String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
      path += uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
      StringBuilder request = new StringBuilder(line[0] + " " + path + " " + line[2] + "\r\n");
      if (!headers.containsKey("host")) {
        request.append("Host: ").append(uri.getRawAuthority()).append("\r\n");
      }
      write(upstream.getOutputStream(), endToEnd(request, head, headers));
      boolean chunked = headers.containsKey("transfer-encoding");
      long length = chunked ? Long.MAX_VALUE : contentLength(headers);
      start(() -> pump(in, upstream, length), "recording-http-proxy-body"); // it may await a 100
      InputStream upIn = new BufferedInputStream(upstream.getInputStream());
      List<String> response = readHead(upIn);
      while (response != null && response.get(0).matches("HTTP/\\S+ 1(?!01)\\d\\d.*")) {
        write(out, String.join("\r\n", response) + "\r\n\r\n"); // an interim 1xx, as is
        response = readHead(upIn);
      }
      if (response == null) {
        return; // no response: the client sees the connection close
      }
      write(
          out,
          endToEnd(new StringBuilder(response.get(0) + "\r\n"), response, parseHeaders(response)));
      copy(upIn, out, Long.MAX_VALUE); // the upstream closes after it: Connection: close
      client.shutdownOutput();
    } finally {
      sockets.remove(upstream);
    }
  }

  /** Appends the end-to-end headers of {@code head} and {@code Connection: close}. */
  private static String endToEnd(
      StringBuilder target, List<String> head, Map<String, String> headers) {
    Set<String> drop = new HashSet<>(HOP_BY_HOP);
    for (String token : headers.getOrDefault("connection", "").split(",")) {
      drop.add(token.trim().toLowerCase(Locale.ROOT));
    }
    for (String header : head.subList(1, head.size())) {
      if (!drop.contains(name(header))) {
        target.append(header).append("\r\n");
      }
    }
    return target.append("Connection: close\r\n\r\n").toString();
  }

  /** Connects to the target, or answers 400 (bad target) or 502 and returns null. */
  private Socket connect(String host, String port, OutputStream out) throws IOException {
    Socket socket = new Socket();
    sockets.add(socket);
    try {
      socket.connect(new InetSocketAddress(host, Integer.parseInt(port)), 10_000);
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      sockets.remove(socket);
      boolean bad = host == null || host.isEmpty() || e instanceof RuntimeException;
      send(
          out,
          "HTTP/1.1 " + (bad ? "400 Bad Request" : "502 Bad Gateway") + "\r\n" + NO_BODY_CLOSE);
      return null;
    }
  }

  /**
   * Copies up to {@code limit} bytes; at end of stream half-closes {@code to}; on failure closes
   * it, so that the other direction ends too.
   */
  private void pump(InputStream from, Socket to, long limit) {
    try {
      if (copy(from, to.getOutputStream(), limit)) {
        to.shutdownOutput();
      }
    } catch (IOException e) {
      try {
        to.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  /** Copies up to {@code limit} bytes; true if the stream ended first. */
  private boolean copy(InputStream from, OutputStream to, long limit) throws IOException {
    byte[] buffer = new byte[16384];
    for (long left = limit, n; left > 0; left -= n) {
      n = from.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n == -1) {
        return true;
      }
      bytesRelayed.addAndGet(n); // before writing, so a peer that got the bytes sees them counted
      to.write(buffer, 0, (int) n);
      to.flush();
    }
    return false;
  }

  /** Writes a relayed head, counted in {@link #bytesRelayed()}. */
  private void write(OutputStream out, String text) throws IOException {
    bytesRelayed.addAndGet(text.length());
    send(out, text);
  }

  private static void send(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static Thread start(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Reads a request or response head, one trimmed line each; null on end of stream. */
  private static List<String> readHead(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (int b; (b = in.read()) != -1; ) {
      if (b != '\n') {
        line.append((char) b);
        continue;
      }
      String text = line.toString().strip();
      line.setLength(0);
      if (!text.isEmpty()) {
        lines.add(text);
      } else if (!lines.isEmpty()) {
        return lines;
      }
    }
    return null;
  }

  private static Map<String, String> parseHeaders(List<String> head) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String header : head.subList(1, head.size())) {
      String value = header.substring(header.indexOf(':') + 1).trim();
      headers.merge(name(header), value, (a, b) -> a + ", " + b);
    }
    return Collections.unmodifiableMap(headers);
  }

  private static String name(String header) {
    return header.substring(0, Math.max(header.indexOf(':'), 0)).trim().toLowerCase(Locale.ROOT);
  }

  private static long contentLength(Map<String, String> headers) {
    return Long.parseLong(headers.getOrDefault("content-length", "0").trim());
  }
}
