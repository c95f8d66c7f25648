package dev.crawler.embedded;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * The main of a cluster node in a JVM of its own ({@link KafkaNodeCluster} starts them): {@code
 * java -cp … dev.crawler.embedded.KafkaNodeProcess node.properties}, where the file holds the
 * node's {@link KafkaNodeSettings#toProperties() settings} and the cluster's id ({@code
 * cluster.id}). Runs until the process is stopped; SIGTERM shuts the node down cleanly, SIGKILL is
 * a crash.
 */
public final class KafkaNodeProcess {

  /** The key of the cluster's id in the node's file. */
  static final String CLUSTER_ID = "cluster.id";

  private KafkaNodeProcess() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: KafkaNodeProcess node.properties");
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    KafkaNodeSettings settings = KafkaNodeSettings.fromProperties(properties);
    EmbeddedKafkaBroker node =
        EmbeddedKafkaBroker.start(settings, properties.getProperty(CLUSTER_ID), false);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  node.close();
                  stopped.countDown();
                },
                "kafka-node-shutdown"));
    stopped.await();
  }
}
