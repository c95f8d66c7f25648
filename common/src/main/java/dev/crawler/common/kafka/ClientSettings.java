package dev.crawler.common.kafka;

import dev.crawler.common.config.ProducerBatching;
import dev.crawler.common.config.ServiceConfig;
import dev.crawler.schemas.TopicSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The settings of each kind of Kafka client a service makes, built in one place from its connection
 * settings (bootstrap servers and every {@code kafka.*} setting, which win over the defaults here
 * where this class says "unless set").
 *
 * <ul>
 *   <li>{@link #groupConsumer}: a member of a consumer group that commits its offsets itself, reads
 *       committed records only, starts at the earliest offset, rebalances cooperatively.
 *   <li>{@link #reader}: a consumer of no group that assigns its partitions by hand and commits
 *       nothing (a topic read to its end, or followed).
 *   <li>{@link #producer}: idempotent, every replica's acknowledgement, batched, and a send that
 *       waits at most {@value #MAX_BLOCK_MS} ms for metadata or buffer space, so a broker away
 *       cannot freeze the loop that sends.
 *   <li>{@link #commandProducer}: the producer of a command an operator waits for.
 *   <li>{@link #transactionalProducer}: the producer, with a transactional id and timeout, whose
 *       sends and commits wait as long as Kafka's default allows.
 * </ul>
 *
 * <p>Immutable; every method returns a new mutable map the caller may add to.
 */
public final class ClientSettings {

  /** The longest a send waits for metadata or room in the buffer, in milliseconds. */
  public static final int MAX_BLOCK_MS = 5_000;

  /** How long a command's producer waits for metadata or an answer, in milliseconds. */
  public static final int COMMAND_WAIT_MS = 15_000;

  private final Map<String, Object> connection;
  private final Map<String, Object> groupLiveness;

  private ClientSettings(Map<String, Object> connection, Map<String, Object> groupLiveness) {
    this.connection = Map.copyOf(connection);
    this.groupLiveness = Map.copyOf(groupLiveness);
  }

  /** The clients of a service: its connection settings and its group liveness. */
  public static ClientSettings of(ServiceConfig config) {
    return new ClientSettings(config.kafkaProperties(), config.groupLiveness());
  }

  /** The clients of a command: connection settings only, Kafka's own group liveness. */
  public static ClientSettings of(Map<String, Object> connection) {
    return new ClientSettings(connection, Map.of());
  }

  /** The connection settings alone. */
  public Map<String, Object> connection() {
    return new HashMap<>(connection);
  }

  /**
   * A member of the group {@code groupId}; with an instance id, a static member (restarted under
   * its name, it takes its partitions back without a rebalance).
   */
  public Map<String, Object> groupConsumer(String groupId, Optional<String> instanceId) {
    Map<String, Object> properties = new HashMap<>(connection);
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.putIfAbsent(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    groupLiveness.forEach(properties::putIfAbsent);
    instanceId
        .filter(id -> !id.isBlank())
        .ifPresent(id -> properties.putIfAbsent(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
    return properties;
  }

  /** A consumer of no group, named {@code clientId} in the broker's logs and metrics. */
  public Map<String, Object> reader(String clientId) {
    Map<String, Object> properties = new HashMap<>(connection);
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    return properties;
  }

  /** An idempotent producer that every replica acknowledges. */
  public Map<String, Object> producer() {
    Map<String, Object> properties = new HashMap<>(connection);
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    ProducerBatching.defaults().forEach(properties::putIfAbsent);
    properties.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, TopicSpec.MAX_MESSAGE_BYTES);
    properties.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
    return properties;
  }

  /**
   * The producer of a command an operator waits for: a cluster or a topic that is not there is said
   * in seconds ({@value #COMMAND_WAIT_MS} ms for metadata and for an answer, twice that for a
   * delivery), not in Kafka's minutes.
   */
  public Map<String, Object> commandProducer() {
    Map<String, Object> properties = producer();
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, COMMAND_WAIT_MS);
    properties.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, COMMAND_WAIT_MS);
    properties.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2 * COMMAND_WAIT_MS);
    return properties;
  }

  /** The producer, writing in transactions under {@code transactionalId}. */
  public Map<String, Object> transactionalProducer(String transactionalId, int timeoutMillis) {
    Map<String, Object> properties = producer();
    // a commit that times out must be retried, not aborted: it waits Kafka's own minute, not the
    // plain producer's few seconds
    if (Integer.valueOf(MAX_BLOCK_MS).equals(properties.get(ProducerConfig.MAX_BLOCK_MS_CONFIG))) {
      properties.remove(ProducerConfig.MAX_BLOCK_MS_CONFIG);
    }
    properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    properties.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeoutMillis);
    return properties;
  }

  /** A consumer of raw records with these settings. */
  public static KafkaConsumer<byte[], byte[]> rawConsumer(Map<String, Object> properties) {
    return new KafkaConsumer<>(
        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** A producer of raw records with these settings. */
  public static KafkaProducer<byte[], byte[]> rawProducer(Map<String, Object> properties) {
    return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
