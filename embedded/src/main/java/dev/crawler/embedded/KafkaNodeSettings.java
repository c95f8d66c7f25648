package dev.crawler.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The configuration of one node of an embedded KRaft cluster: every node is broker and controller
 * at once (combined mode), listens on 127.0.0.1 only, and is a voter of the controller quorum.
 *
 * <p>Replication follows the cluster's size: one node keeps one replica of everything; three nodes
 * or more keep three replicas of every topic, with at least two in sync for a write to succeed
 * ({@code min.insync.replicas} 2), the internal topics (consumer offsets, transaction log)
 * included, and every topic created without a replication factor (Kafka Streams' changelogs and
 * repartition topics) too.
 *
 * @param nodeId this node's id
 * @param voters every node's ports, by node id (this node's among them)
 * @param logDir where this node keeps its log segments and metadata
 * @param defaultPartitions partitions of topics created without a count
 */
public record KafkaNodeSettings(
    int nodeId, SortedMap<Integer, NodePorts> voters, Path logDir, int defaultPartitions) {

  /**
   * Threads per log directory that load the partitions' logs at start and flush and close them at
   * shutdown, instead of Kafka's 2. A crawl's node leads some 120 partitions (the catalogue's
   * topics, the services' changelogs, the internal topics) and a clean shutdown flushes each one,
   * each flush waiting on the disk: more of them overlap, and a crawl waits for this shutdown
   * before it exits.
   */
  static final int LOG_THREADS_PER_DIR = 8;

  /** The listener name of the controller quorum. */
  static final String CONTROLLER_LISTENER = "CONTROLLER";

  /**
   * The two ports of a node on 127.0.0.1.
   *
   * @param broker the clients' listener
   * @param controller the controller quorum's listener
   */
  public record NodePorts(int broker, int controller) {}

  public KafkaNodeSettings {
    voters = new TreeMap<>(voters);
    if (!voters.containsKey(nodeId)) {
      throw new IllegalArgumentException("node " + nodeId + " is not among the voters " + voters);
    }
  }

  /** The settings of the only node of a one-node cluster. */
  public static KafkaNodeSettings single(
      Path logDir, int brokerPort, int controllerPort, int defaultPartitions) {
    return new KafkaNodeSettings(
        1,
        new TreeMap<>(Map.of(1, new NodePorts(brokerPort, controllerPort))),
        logDir,
        defaultPartitions);
  }

  /**
   * The settings as a properties file holds them (for a node started in a process of its own):
   * {@code node.id}, {@code voters} ({@code 1@broker:controller,2@…}), {@code log.dir}, {@code
   * default.partitions}.
   */
  public Properties toProperties() {
    Properties properties = new Properties();
    properties.setProperty("node.id", Integer.toString(nodeId));
    properties.setProperty(
        "voters",
        voters.entrySet().stream()
            .map(
                voter ->
                    voter.getKey()
                        + "@"
                        + voter.getValue().broker()
                        + ":"
                        + voter.getValue().controller())
            .collect(Collectors.joining(",")));
    properties.setProperty("log.dir", logDir.toAbsolutePath().toString());
    properties.setProperty("default.partitions", Integer.toString(defaultPartitions));
    return properties;
  }

  /**
   * The settings {@link #toProperties()} wrote.
   *
   * @throws IllegalArgumentException naming what is missing or wrong
   */
  public static KafkaNodeSettings fromProperties(Properties properties) {
    SortedMap<Integer, NodePorts> voters = new TreeMap<>();
    for (String voter : required(properties, "voters").split(",")) {
      String[] idAndPorts = voter.strip().split("@", 2);
      String[] ports = idAndPorts.length == 2 ? idAndPorts[1].split(":", 2) : new String[0];
      if (ports.length != 2) {
        throw new IllegalArgumentException("voters: not id@broker:controller: " + voter);
      }
      voters.put(
          Integer.parseInt(idAndPorts[0]),
          new NodePorts(Integer.parseInt(ports[0]), Integer.parseInt(ports[1])));
    }
    return new KafkaNodeSettings(
        Integer.parseInt(required(properties, "node.id")),
        voters,
        Path.of(required(properties, "log.dir")),
        Integer.parseInt(required(properties, "default.partitions")));
  }

  private static String required(Properties properties, String key) {
    String value = properties.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("missing " + key);
    }
    return value.strip();
  }

  /** Replicas of each topic: three on a cluster of three nodes or more, else one per node. */
  public int replicas() {
    return Math.min(3, voters.size());
  }

  /** Replicas that must have a write before it succeeds. */
  public int minInSyncReplicas() {
    return replicas() >= 3 ? 2 : 1;
  }

  /** This node's client listener, {@code 127.0.0.1:port}. */
  public String bootstrapServer() {
    return "127.0.0.1:" + voters.get(nodeId).broker();
  }

  /** Every node's client listener, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return voters.values().stream()
        .map(ports -> "127.0.0.1:" + ports.broker())
        .collect(Collectors.joining(","));
  }

  /** The node's {@code server.properties}. */
  public Properties brokerProperties() {
    NodePorts own = voters.get(nodeId);
    String replicas = Integer.toString(replicas());
    String minInSync = Integer.toString(minInSyncReplicas());
    Properties props = new Properties();
    props.putAll(
        Map.ofEntries(
            Map.entry("process.roles", "broker,controller"),
            Map.entry("node.id", Integer.toString(nodeId)),
            Map.entry(
                "controller.quorum.voters",
                voters.entrySet().stream()
                    .map(voter -> voter.getKey() + "@127.0.0.1:" + voter.getValue().controller())
                    .collect(Collectors.joining(","))),
            Map.entry(
                "listeners",
                "PLAINTEXT://127.0.0.1:"
                    + own.broker()
                    + ","
                    + CONTROLLER_LISTENER
                    + "://127.0.0.1:"
                    + own.controller()),
            Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + own.broker()),
            Map.entry(
                "listener.security.protocol.map",
                "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT"),
            Map.entry("controller.listener.names", CONTROLLER_LISTENER),
            Map.entry("inter.broker.listener.name", "PLAINTEXT"),
            Map.entry("log.dirs", logDir.toAbsolutePath().toString()),
            Map.entry("num.recovery.threads.per.data.dir", Integer.toString(LOG_THREADS_PER_DIR)),
            Map.entry("num.partitions", Integer.toString(defaultPartitions)),
            // every topic, the internal ones included, as replicated as the cluster allows; few
            // partitions for the internal ones so that the cluster starts fast
            Map.entry("default.replication.factor", replicas),
            Map.entry("min.insync.replicas", minInSync),
            Map.entry("offsets.topic.replication.factor", replicas),
            Map.entry("offsets.topic.num.partitions", "5"),
            Map.entry("transaction.state.log.replication.factor", replicas),
            Map.entry("transaction.state.log.min.isr", minInSync),
            Map.entry("transaction.state.log.num.partitions", "5"),
            // a killed stateless service's open transaction is aborted within a second of its
            // timeout, not ten
            Map.entry("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"),
            Map.entry("share.coordinator.state.topic.replication.factor", replicas),
            Map.entry("share.coordinator.state.topic.min.isr", minInSync),
            Map.entry("group.initial.rebalance.delay.ms", "0"),
            // topics come from the catalogue; a typo must not create one silently
            Map.entry("auto.create.topics.enable", "false"),
            Map.entry("log.cleaner.dedupe.buffer.size", Long.toString(16L * 1024 * 1024)),
            Map.entry("log.segment.bytes", Integer.toString(64 * 1024 * 1024)),
            // a node alone has no replica to hand its partitions' leadership to: asking the
            // controller first only delays its shut-down (by about 0.1 s); its logs are closed
            // cleanly all the same
            Map.entry("controlled.shutdown.enable", Boolean.toString(voters.size() > 1))));
    return props;
  }
}
