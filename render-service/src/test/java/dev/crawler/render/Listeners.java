package dev.crawler.render;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sockets that count what reaches them and answer nothing: a TCP listener and a UDP socket on a
 * loopback address, standing for a service a page must not reach.
 */
public final class Listeners implements AutoCloseable {

  private final ServerSocket tcp;
  private final DatagramSocket udp;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger datagrams = new AtomicInteger();

  public Listeners(String address) throws IOException {
    InetAddress host = InetAddress.getByName(address);
    tcp = new ServerSocket();
    tcp.bind(new InetSocketAddress(host, 0));
    udp = new DatagramSocket(new InetSocketAddress(host, 0));
    Thread acceptor =
        new Thread(
            () -> {
              while (!tcp.isClosed()) {
                try {
                  Socket socket = tcp.accept();
                  connections.incrementAndGet();
                  socket.close();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "tcp-sink");
    acceptor.setDaemon(true);
    acceptor.start();
    Thread receiver =
        new Thread(
            () -> {
              byte[] buffer = new byte[2048];
              while (!udp.isClosed()) {
                try {
                  udp.receive(new DatagramPacket(buffer, buffer.length));
                  datagrams.incrementAndGet();
                } catch (SocketException e) {
                  return;
                } catch (IOException e) {
                  return;
                }
              }
            },
            "udp-sink");
    receiver.setDaemon(true);
    receiver.start();
  }

  /** {@code host:port} of the TCP listener. */
  public String tcpAuthority() {
    return tcp.getInetAddress().getHostAddress() + ":" + tcp.getLocalPort();
  }

  /** {@code host:port} of the UDP socket. */
  public String udpAuthority() {
    return udp.getLocalAddress().getHostAddress() + ":" + udp.getLocalPort();
  }

  /** Connections accepted, and datagrams received. */
  public int arrivals() {
    return connections.get() + datagrams.get();
  }

  @Override
  public void close() throws IOException {
    tcp.close();
    udp.close();
  }
}
