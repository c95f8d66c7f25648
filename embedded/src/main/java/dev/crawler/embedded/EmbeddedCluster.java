package dev.crawler.embedded;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded mode's infrastructure: a Kafka broker and a schema registry in this JVM (the
 * registry a {@link LocalSchemaRegistry}), both on 127.0.0.1. The broker keeps its data in {@code
 * dataDir/kafka}, the registry its schemas in {@code dataDir/schema-registry}. Closing stops both.
 *
 * <p>A data directory whose schemas an Apicurio Registry stored (written by an earlier version of
 * the crawler) is served by that registry again, as a child process ({@link
 * EmbeddedSchemaRegistry}): its records carry that registry's schema ids.
 */
public final class EmbeddedCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  private final Path dataDir;
  private final int defaultPartitions;
  private final StablePorts ports;
  private EmbeddedKafkaBroker broker;
  private final SchemaRegistryServer registry;

  private EmbeddedCluster(
      Path dataDir,
      int defaultPartitions,
      StablePorts ports,
      EmbeddedKafkaBroker broker,
      SchemaRegistryServer registry) {
    this.dataDir = dataDir;
    this.defaultPartitions = defaultPartitions;
    this.ports = ports;
    this.broker = broker;
    this.registry = registry;
  }

  /**
   * Starts the registry and the broker and waits for both. Started again on the same data
   * directory, both come back on the same ports ({@link StablePorts}), so services that were
   * connected reconnect by themselves.
   *
   * @param defaultPartitions partitions of topics created without a count
   */
  public static EmbeddedCluster start(Path dataDir, int defaultPartitions) {
    return start(dataDir, defaultPartitions, (bootstrapServers, registryUrl) -> {});
  }

  /**
   * {@link #start(Path, int)}, running {@code brokerReady} as soon as the broker answers requests,
   * while a registry of its own JVM may still be starting: work that needs only the broker, such as
   * creating topics, is then done before the cluster is ready instead of after.
   *
   * @param brokerReady given the broker's bootstrap servers and the URL the registry will answer at
   *     once this method returns (it may not answer yet); an exception it throws stops the cluster
   *     and is thrown
   */
  public static EmbeddedCluster start(
      Path dataDir, int defaultPartitions, BiConsumer<String, String> brokerReady) {
    StablePorts ports = StablePorts.of(dataDir);
    var registryStart = new CompletableFuture<SchemaRegistryServer>();
    String registryUrl;
    if (EmbeddedSchemaRegistry.holdsSchemas(dataDir)
        && !LocalSchemaRegistry.holdsSchemas(dataDir)) {
      // the registry's JVM starts while the broker formats and starts
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
      registryUrl = EmbeddedSchemaRegistry.urlOf(ports.registry());
    } else {
      LocalSchemaRegistry local = LocalSchemaRegistry.start(dataDir, ports.registry());
      registryStart.complete(local);
      registryUrl = local.url();
    }
    @Nullable EmbeddedKafkaBroker broker = null;
    try {
      broker =
          EmbeddedKafkaBroker.start(dataDir, defaultPartitions, ports.kafka(), ports.controller());
      brokerReady.accept(broker.bootstrapServers(), registryUrl);
      SchemaRegistryServer registry = registryStart.join();
      LOG.info(
          "Embedded cluster ready: Kafka at {}, schema registry at {}",
          broker.bootstrapServers(),
          registry.url());
      return new EmbeddedCluster(dataDir, defaultPartitions, ports, broker, registry);
    } catch (RuntimeException e) {
      if (broker != null) {
        broker.close();
      }
      registryStart.thenAccept(SchemaRegistryServer::close);
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

  public SchemaRegistryServer registry() {
    return registry;
  }

  /** Stops the broker, then the registry. */
  @Override
  public void close() {
    // the registry keeps its schemas apart from the broker: both stop at once (a registry of its
    // own JVM takes most of a second)
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
