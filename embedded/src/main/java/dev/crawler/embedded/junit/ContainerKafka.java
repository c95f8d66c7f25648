package dev.crawler.embedded.junit;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The broker in a container (Testcontainers' Kafka module, KRaft), used when a Docker engine is
 * reachable. Only this class touches Testcontainers, so that tests run without it on the class
 * path.
 */
final class ContainerKafka implements KafkaBackend {

  static final String IMAGE = "apache/kafka:4.3.1";

  private final KafkaContainer container;

  private ContainerKafka(KafkaContainer container) {
    this.container = container;
  }

  /**
   * Whether a Docker engine looks reachable; checked cheaply first, since most machines here have
   * none.
   */
  static boolean isDockerAvailable() {
    boolean hint =
        System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"));
    if (!hint) {
      return false;
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  static ContainerKafka start() {
    KafkaContainer container = new KafkaContainer(IMAGE);
    container.start();
    return new ContainerKafka(container);
  }

  @Override
  public String bootstrapServers() {
    return container.getBootstrapServers();
  }

  @Override
  public String describe() {
    return "Kafka container " + IMAGE;
  }

  @Override
  public void close() {
    container.stop();
  }
}
