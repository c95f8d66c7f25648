package dev.crawler.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports nothing listens on at the moment of asking, on the loopback interface. */
final class FreePorts {

  private FreePorts() {}

  /** A port that was free on 127.0.0.1 just now. Another process could take it before it is bound. */
  static int next() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }
}
