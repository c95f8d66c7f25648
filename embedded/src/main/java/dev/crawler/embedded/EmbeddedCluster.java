package dev.crawler.embedded;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded mode's infrastructure: a Kafka broker in this JVM and a schema registry beside it,
 * both on 127.0.0.1. The broker keeps its data in {@code dataDir/kafka}; the registry keeps schemas
 * in memory (schemas are registered again, with the same content, on the next start). Closing stops
 * both.
 */
public final class EmbeddedCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  private final Path dataDir;
  private final int defaultPartitions;
  private final StablePorts ports;
  private EmbeddedKafkaBroker broker;
  private final EmbeddedSchemaRegistry registry;

  private EmbeddedCluster(
      Path dataDir,
      int defaultPartitions,
      StablePorts ports,
      EmbeddedKafkaBroker broker,
      EmbeddedSchemaRegistry registry) {
    this.dataDir = dataDir;
    this.defaultPartitions = defaultPartitions;
    this.ports = ports;
    this.broker = broker;
    this.registry = registry;
  }

  /**
   * Starts the registry and the broker (concurrently: the registry's JVM starts while the broker
   * formats and starts) and waits for both. Started again on the same data directory, both come
   * back on the same ports ({@link StablePorts}), so services that were connected reconnect by
   * themselves.
   *
   * @param defaultPartitions partitions of topics created without a count
   */
  public static EmbeddedCluster start(Path dataDir, int defaultPartitions) {
    return start(dataDir, defaultPartitions, (bootstrapServers, registryUrl) -> {});
  }

  /**
   * {@link #start(Path, int)}, running {@code brokerReady} as soon as the broker answers requests,
   * while the registry may still be starting (its JVM takes longer than the broker): work that
   * needs only the broker, such as creating topics, is then done before the cluster is ready
   * instead of after.
   *
   * @param brokerReady given the broker's bootstrap servers and the URL the registry will answer at
   *     once this method returns (it may not answer yet); an exception it throws stops the cluster
   *     and is thrown
   */
  public static EmbeddedCluster start(
      Path dataDir, int defaultPartitions, BiConsumer<String, String> brokerReady) {
    StablePorts ports = StablePorts.of(dataDir);
    var registryStart = new CompletableFuture<EmbeddedSchemaRegistry>();
    Thread starter =
        new Thread(
            () -> {
              try {
                registryStart.complete(EmbeddedSchemaRegistry.start(dataDir, ports.registry()));
              } catch (RuntimeException e) {
                registryStart.completeExceptionally(e);
              }
            },
            "schema-registry-start");
    starter.start();
    @Nullable EmbeddedKafkaBroker broker = null;
    try {
      broker =
          EmbeddedKafkaBroker.start(dataDir, defaultPartitions, ports.kafka(), ports.controller());
      brokerReady.accept(broker.bootstrapServers(), EmbeddedSchemaRegistry.urlOf(ports.registry()));
      EmbeddedSchemaRegistry registry = registryStart.join();
      LOG.info(
          "Embedded cluster ready: Kafka at {}, schema registry at {}",
          broker.bootstrapServers(),
          registry.url());
      return new EmbeddedCluster(dataDir, defaultPartitions, ports, broker, registry);
    } catch (RuntimeException e) {
      if (broker != null) {
        broker.close();
      }
      registryStart.thenAccept(EmbeddedSchemaRegistry::close);
      throw e instanceof CompletionException && e.getCause() instanceof RuntimeException cause
          ? cause
          : e;
    }
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  /** The schema registry's Confluent-compatible API root. */
  public String schemaRegistryUrl() {
    return registry.url();
  }

  public EmbeddedKafkaBroker broker() {
    return broker;
  }

  /**
   * Stops the broker (the registry keeps running): clients find nothing at its address until {@link
   * #startBroker()}.
   */
  public void stopBroker() {
    broker.close();
  }

  /** Starts the stopped broker again on its data directory and its address. */
  public void startBroker() {
    broker =
        EmbeddedKafkaBroker.start(dataDir, defaultPartitions, ports.kafka(), ports.controller());
  }

  public EmbeddedSchemaRegistry registry() {
    return registry;
  }

  /** Stops the broker, then the registry. */
  @Override
  public void close() {
    // the registry keeps its schemas apart from the broker: both stop at once
    Thread stoppingRegistry = new Thread(registry::close, "schema-registry-stop");
    stoppingRegistry.start();
    try {
      broker.close();
    } finally {
      try {
        stoppingRegistry.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
