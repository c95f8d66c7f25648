package dev.crawler.fetcher.http;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SOCKS5 server (RFC 1928) on 127.0.0.1 that records what it is asked to connect to: a test
 * stand-in for a corporate SOCKS proxy on loopback. It supports the CONNECT command only, with
 * IPv4, domain-name and IPv6 addresses, and either no authentication or, when built with
 * credentials, username/password authentication (RFC 1929; wrong credentials get status 1 and the
 * connection is closed). After a success reply carrying the proxy's local address toward the
 * target, it relays bytes both ways, half-closing each direction as its source ends.
 *
 * <p>Every CONNECT is recorded; a failed username/password exchange is recorded too, with a null
 * host, port 0 and {@code authorized} false. {@link #bytesRelayed()} counts the relayed bytes in
 * both directions, not the SOCKS negotiation.
 */
public final class RecordingSocks5Proxy implements AutoCloseable {

  /** One CONNECT: the target as the client named it, and the user name it gave, if any. */
  public record Recorded(String host, int port, String user, boolean authorized) {}

  private final ServerSocket server;
  private final Thread acceptor;
  private final String user;
  private final String password;
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicLong bytesRelayed = new AtomicLong();

  /** Starts a proxy that asks for no authentication. */
  public RecordingSocks5Proxy() throws IOException {
    this(null, null);
  }

  /** Starts a proxy that requires this user name and password (RFC 1929), unless user is null. */
  public RecordingSocks5Proxy(String user, String password) throws IOException {
    this.user = user;
    this.password = password == null ? "" : password;
    server = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
    acceptor = start(this::acceptLoop, "recording-socks5-proxy-" + server.getLocalPort());
  }

  /** The port the proxy listens on, on 127.0.0.1. */
  public int port() {
    return server.getLocalPort();
  }

  /** Every CONNECT (and failed authentication) so far, oldest first (a snapshot). */
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
        Socket client = track(server.accept());
        start(() -> serve(client), "recording-socks5-proxy-conn");
      } catch (IOException e) {
        // closed, or one failed accept: the loop condition decides
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(client.getInputStream()));
      OutputStream out = client.getOutputStream();
      if (in.readUnsignedByte() != 5) {
        return;
      }
      byte[] methods = read(in, in.readUnsignedByte());
      int method = user == null ? 0x00 : 0x02;
      if (!contains(methods, method)) {
        send(out, 5, 0xFF);
        return;
      }
      send(out, 5, method);
      String givenUser = null;
      if (method == 0x02) {
        if (in.readUnsignedByte() != 1) {
          return;
        }
        givenUser = new String(read(in, in.readUnsignedByte()), StandardCharsets.UTF_8);
        String givenPassword = new String(read(in, in.readUnsignedByte()), StandardCharsets.UTF_8);
        boolean ok = user.equals(givenUser) && password.equals(givenPassword);
        if (!ok) {
          requests.add(new Recorded(null, 0, givenUser, false));
        }
        send(out, 1, ok ? 0 : 1);
        if (!ok) {
          return;
        }
      }
      if (in.readUnsignedByte() != 5) {
        return;
      }
      int command = in.readUnsignedByte();
      in.readUnsignedByte(); // reserved
      String host;
      switch (in.readUnsignedByte()) {
        case 1 -> host = InetAddress.getByAddress(read(in, 4)).getHostAddress();
        case 3 -> host = new String(read(in, in.readUnsignedByte()), StandardCharsets.UTF_8);
        case 4 -> host = InetAddress.getByAddress(read(in, 16)).getHostAddress();
        default -> {
          reply(out, 0x08, null); // address type not supported
          return;
        }
      }
      int port = in.readUnsignedShort();
      if (command != 1) {
        reply(out, 0x07, null); // command not supported
        return;
      }
      requests.add(new Recorded(host, port, givenUser, true));
      Socket upstream = track(new Socket());
      try (upstream) {
        try {
          upstream.connect(new InetSocketAddress(host, port), 10_000);
        } catch (IOException e) {
          int status = e instanceof UnknownHostException ? 0x04 : 0x01; // host unreachable
          reply(out, e instanceof ConnectException ? 0x05 : status, null); // 5: refused
          return;
        }
        reply(out, 0x00, upstream);
        Thread up = start(() -> pump(in, upstream), "recording-socks5-proxy-relay");
        pump(upstream.getInputStream(), client);
        up.join();
      } finally {
        sockets.remove(upstream);
      }
    } catch (IOException | RuntimeException e) {
      // the client went away, or the proxy was closed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      sockets.remove(client);
    }
  }

  /** Replies VER REP RSV ATYP BND.ADDR BND.PORT, the bound address being upstream's local one. */
  private static void reply(OutputStream out, int status, Socket upstream) throws IOException {
    byte[] address = upstream == null ? new byte[4] : upstream.getLocalAddress().getAddress();
    int port = upstream == null ? 0 : upstream.getLocalPort();
    out.write(new byte[] {5, (byte) status, 0, (byte) (address.length == 4 ? 1 : 4)});
    out.write(address);
    out.write(new byte[] {(byte) (port >> 8), (byte) port});
    out.flush();
  }

  /** Copies until end of stream, then half-closes {@code to}; on failure closes {@code to}. */
  private void pump(InputStream from, Socket to) {
    byte[] buffer = new byte[16384];
    try {
      OutputStream out = to.getOutputStream();
      for (int n; (n = from.read(buffer)) != -1; ) {
        bytesRelayed.addAndGet(n); // before writing, so a peer that got the bytes sees them counted
        out.write(buffer, 0, n);
        out.flush();
      }
      to.shutdownOutput();
    } catch (IOException e) {
      try {
        to.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  private static byte[] read(DataInputStream in, int length) throws IOException {
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }

  private static void send(OutputStream out, int first, int second) throws IOException {
    out.write(new byte[] {(byte) first, (byte) second});
    out.flush();
  }

  private static boolean contains(byte[] methods, int method) {
    for (byte candidate : methods) {
      if (candidate == method) {
        return true;
      }
    }
    return false;
  }

  private Socket track(Socket socket) {
    sockets.add(socket);
    return socket;
  }

  private static Thread start(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
