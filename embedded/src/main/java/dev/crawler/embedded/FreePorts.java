package dev.crawler.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Ports nothing listens on at the moment of asking, on the loopback interface. */
final class FreePorts {

  /**
   * Ports handed out lately: the system may offer a port again as soon as its probe socket closes.
   */
  private static final Deque<Integer> RECENT = new ArrayDeque<>();

  private static final int REMEMBERED = 64;

  private FreePorts() {}

  /**
   * Marks a port as handed out (one chosen elsewhere), so {@link #next()} does not offer it soon.
   */
  static synchronized void remember(int port) {
    if (!RECENT.contains(port)) {
      RECENT.addFirst(port);
      if (RECENT.size() > REMEMBERED) {
        RECENT.removeLast();
      }
    }
  }

  /**
   * A port that was free on 127.0.0.1 just now and was not handed out by this class lately, so two
   * calls in a row (a broker's listener and its controller) never get the same port. Another
   * process could still take it before it is bound. Thread-safe.
   */
  static synchronized int next() {
    List<ServerSocket> probes = new ArrayList<>();
    try {
      while (true) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        probes.add(socket);
        int port = socket.getLocalPort();
        if (!RECENT.contains(port)) {
          RECENT.addFirst(port);
          if (RECENT.size() > REMEMBERED) {
            RECENT.removeLast();
          }
          return port;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    } finally {
      for (ServerSocket probe : probes) {
        try {
          probe.close();
        } catch (IOException e) {
          // a probe that cannot be closed is closed by the system when this JVM exits
        }
      }
    }
  }
}
