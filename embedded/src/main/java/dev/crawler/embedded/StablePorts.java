package dev.crawler.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ports of an embedded cluster, kept in its data directory ({@value #FILE}) so that the cluster
 * started again on the same directory comes back on the same addresses, and services started
 * against it reconnect by themselves. A port another process holds by then is replaced by a free
 * one, with a warning that names it.
 *
 * @param kafka the broker's listener
 * @param controller the KRaft controller's listener
 * @param registry the schema registry's HTTP port
 */
public record StablePorts(int kafka, int controller, int registry) {

  private static final Logger LOG = LoggerFactory.getLogger(StablePorts.class);

  /** The file in the data directory. */
  static final String FILE = "ports.properties";

  /**
   * The ports this data directory used before, where they are still free, and new ones otherwise;
   * written back.
   */
  public static StablePorts of(Path dataDir) {
    Path file = dataDir.resolve(FILE);
    Properties saved = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        saved.load(reader);
      } catch (IOException | IllegalArgumentException e) {
        LOG.warn("{} cannot be read ({}): the cluster starts on new ports", file, e.toString());
      }
    }
    StablePorts ports =
        new StablePorts(
            port(saved, "kafka", file),
            port(saved, "controller", file),
            port(saved, "registry", file));
    Properties written = new Properties();
    written.setProperty("kafka", Integer.toString(ports.kafka));
    written.setProperty("controller", Integer.toString(ports.controller));
    written.setProperty("registry", Integer.toString(ports.registry));
    try {
      Files.createDirectories(dataDir);
      try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        written.store(
            writer, "the embedded cluster's ports, used again when it starts on this directory");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return ports;
  }

  private static int port(Properties saved, String name, Path file) {
    String value = saved.getProperty(name);
    if (value != null) {
      try {
        int port = Integer.parseInt(value.strip());
        if (isFree(port)) {
          FreePorts.remember(port);
          return port;
        }
        LOG.warn(
            "the {} port {} of {} is taken by another process: a new one is used, so clients of the old address must be told the new one",
            name,
            port,
            file);
      } catch (NumberFormatException e) {
        LOG.warn("{}: {}={} is not a port: a new one is used", file, name, value);
      }
    }
    return FreePorts.next();
  }

  private static boolean isFree(int port) {
    if (port < 1 || port > 65535) {
      return false;
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
