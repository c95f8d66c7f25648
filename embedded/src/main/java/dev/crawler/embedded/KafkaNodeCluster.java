package dev.crawler.embedded;

import dev.crawler.embedded.KafkaNodeSettings.NodePorts;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka cluster of N nodes, each in a JVM of its own on 127.0.0.1 ({@link KafkaNodeProcess}):
 * KRaft in combined mode, every node broker and controller, three replicas of every topic on a
 * cluster of three nodes or more ({@link KafkaNodeSettings}). A node can be killed (SIGKILL, a
 * crash), stopped (SIGTERM) and started again on its data directory and its ports, which is what a
 * test of Kafka's own events needs.
 *
 * <p>The cluster's id and ports are kept in {@code dataDir/cluster.properties}, so a cluster
 * started again on its directory comes back as it was. Each node's output goes to {@code
 * dataDir/node-N.log}. Not thread-safe; driven from one thread.
 */
public final class KafkaNodeCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaNodeCluster.class);

  /** The file of the cluster's id and ports in its data directory. */
  static final String FILE = "cluster.properties";

  /** A node's JVM: small, C1 only (a node of a test cluster is busy for minutes, not days). */
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx512m", "-Xss1m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  private final Path dataDir;
  private final String clusterId;
  private final SortedMap<Integer, NodePorts> voters;
  private final int defaultPartitions;
  private final String classpath;
  private final Map<Integer, Process> processes = new HashMap<>();
  private final Thread shutdownHook;
  private Admin admin;

  private KafkaNodeCluster(
      Path dataDir,
      String clusterId,
      SortedMap<Integer, NodePorts> voters,
      int defaultPartitions,
      String classpath) {
    this.dataDir = dataDir;
    this.clusterId = clusterId;
    this.voters = voters;
    this.defaultPartitions = defaultPartitions;
    this.classpath = classpath;
    // the nodes never outlive this JVM
    this.shutdownHook =
        new Thread(
            () -> processes.values().forEach(Process::destroyForcibly), "kafka-nodes-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts every node of a cluster of {@code nodes} on {@code dataDir} (its id and ports as they
   * were when the directory holds a cluster already) and waits until each is a broker of the
   * cluster.
   *
   * @param classpath the class path of the nodes' JVMs: one that holds this module and Kafka's
   *     broker (the {@code crawler} command's jar, or a test's own class path)
   */
  public static KafkaNodeCluster start(
      Path dataDir, int nodes, int defaultPartitions, String classpath) {
    if (nodes < 1) {
      throw new IllegalArgumentException("a cluster has at least one node, not " + nodes);
    }
    Properties saved = load(dataDir.resolve(FILE));
    String clusterId = saved.getProperty("cluster.id", Uuid.randomUuid().toString());
    SortedMap<Integer, NodePorts> voters = new TreeMap<>();
    for (int id = 1; id <= nodes; id++) {
      String ports = saved.getProperty("node." + id);
      if (ports != null) {
        String[] both = ports.split(":", 2);
        voters.put(id, new NodePorts(Integer.parseInt(both[0]), Integer.parseInt(both[1])));
        FreePorts.remember(voters.get(id).broker());
        FreePorts.remember(voters.get(id).controller());
      } else {
        voters.put(id, new NodePorts(FreePorts.next(), FreePorts.next()));
      }
    }
    store(dataDir, clusterId, voters);
    KafkaNodeCluster cluster =
        new KafkaNodeCluster(dataDir, clusterId, voters, defaultPartitions, classpath);
    try {
      for (int id : voters.keySet()) {
        cluster.start(id);
      }
      cluster.awaitNodes(voters.keySet(), READY_TIMEOUT);
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    LOG.info(
        "Kafka cluster of {} nodes ready at {} ({})", nodes, cluster.bootstrapServers(), dataDir);
    return cluster;
  }

  /** Every node's client listener, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return voters.values().stream()
        .map(ports -> "127.0.0.1:" + ports.broker())
        .collect(Collectors.joining(","));
  }

  /** The ids of the cluster's nodes, 1 to N. */
  public Set<Integer> nodeIds() {
    return new TreeSet<>(voters.keySet());
  }

  /** Replicas of each topic the cluster creates. */
  public short replicas() {
    return (short) Math.min(3, voters.size());
  }

  /** Whether the node's process runs. */
  public boolean isRunning(int node) {
    Process process = processes.get(node);
    return process != null && process.isAlive();
  }

  /** Starts the node's process (again) on its data directory and ports; returns at once. */
  public void start(int node) {
    if (isRunning(node)) {
      throw new IllegalStateException("node " + node + " runs already");
    }
    Path nodeDir = dataDir.resolve("node-" + node);
    KafkaNodeSettings settings =
        new KafkaNodeSettings(node, voters, nodeDir.resolve("kafka"), defaultPartitions);
    Properties file = settings.toProperties();
    file.setProperty(KafkaNodeProcess.CLUSTER_ID, clusterId);
    Path properties = nodeDir.resolve("node.properties");
    try {
      Files.createDirectories(nodeDir);
      try (Writer writer = Files.newBufferedWriter(properties, StandardCharsets.UTF_8)) {
        file.store(writer, "node " + node + " of the cluster in " + dataDir);
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(JVM_OPTIONS);
      command.addAll(
          List.of("-cp", classpath, KafkaNodeProcess.class.getName(), properties.toString()));
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(
                      dataDir.resolve("node-" + node + ".log").toFile()))
              .start();
      processes.put(node, process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start node " + node + " of " + dataDir, e);
    }
  }

  /** Kills the node's process (SIGKILL: a crash) and waits until it is gone. */
  public void kill(int node) {
    end(node, true);
  }

  /** Stops the node's process (SIGTERM: a clean shutdown) and waits until it is gone. */
  public void stop(int node) {
    end(node, false);
  }

  private void end(int node, boolean kill) {
    Process process = processes.get(node);
    if (process == null || !process.isAlive()) {
      return;
    }
    if (kill) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Waits until each of these nodes is an unfenced broker of the cluster (a node started again
   * rejoins after the others accept it).
   *
   * @throws IllegalStateException when one is not within the timeout
   */
  public void awaitNodes(Set<Integer> nodes, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Set<Integer> brokers = Set.of();
    while (System.nanoTime() < deadline) {
      for (int node : nodes) {
        Process process = processes.get(node);
        if (process == null || !process.isAlive()) {
          throw new IllegalStateException(
              "node " + node + " is not running; see " + dataDir.resolve("node-" + node + ".log"));
        }
      }
      try {
        brokers =
            admin().describeCluster().nodes().get(5, TimeUnit.SECONDS).stream()
                .map(Node::id)
                .collect(Collectors.toSet());
        if (brokers.containsAll(nodes)) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the cluster", e);
      } catch (ExecutionException | TimeoutException e) {
        // not answering yet
      }
      sleep(200);
    }
    throw new IllegalStateException(
        "nodes "
            + nodes
            + " are not brokers of the cluster after "
            + timeout.toSeconds()
            + " s (brokers: "
            + brokers
            + "); see the logs in "
            + dataDir);
  }

  /** The node that leads the controller quorum now. */
  public int activeController() {
    try {
      return admin().describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking for the controller", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the controller quorum did not answer: " + e, e);
    }
  }

  /**
   * The topic as the cluster describes it, once its brokers know it: a topic created a moment ago
   * is known to the controller before every broker's metadata has it.
   *
   * @throws IllegalStateException when the cluster does not know it within 30 s
   */
  public TopicDescription describe(String topic) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return admin()
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while describing " + topic, e);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
            || System.nanoTime() > deadline) {
          throw new IllegalStateException("the cluster did not describe " + topic + ": " + e, e);
        }
        sleep(100);
      } catch (TimeoutException e) {
        throw new IllegalStateException("the cluster did not describe " + topic + ": " + e, e);
      }
    }
  }

  /** Each partition's leader now (-1 for one without a leader), by partition. */
  public Map<TopicPartition, Integer> leaders(String topic) {
    Map<TopicPartition, Integer> leaders =
        new TreeMap<>(Comparator.comparingInt(TopicPartition::partition));
    for (TopicPartitionInfo partition : describe(topic).partitions()) {
      leaders.put(
          new TopicPartition(topic, partition.partition()),
          partition.leader() == null || partition.leader().isEmpty()
              ? -1
              : partition.leader().id());
    }
    return leaders;
  }

  /** The node that leads the most partitions of {@code topic} now. */
  public int leaderOfMost(String topic) {
    Map<Integer, Integer> counts = new TreeMap<>();
    leaders(topic).values().stream()
        .filter(leader -> leader >= 0)
        .forEach(leader -> counts.merge(leader, 1, Integer::sum));
    return counts.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElseThrow(() -> new IllegalStateException(topic + " has no leader at all"));
  }

  /** An admin client of the cluster (owned by it, closed with it). */
  public Admin admin() {
    if (admin == null) {
      admin =
          Admin.create(
              Map.of(
                  AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                  AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000,
                  AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000));
    }
    return admin;
  }

  /** Stops every node cleanly (SIGTERM), all at once, and waits for them. */
  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
      admin = null;
    }
    processes.values().forEach(Process::destroy);
    for (int node : new TreeSet<>(processes.keySet())) {
      end(node, false);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs anyway
    }
  }

  private static Properties load(Path file) {
    Properties properties = new Properties();
    if (Files.isRegularFile(file)) {
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        properties.load(reader);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return properties;
  }

  private static void store(Path dataDir, String clusterId, SortedMap<Integer, NodePorts> voters) {
    Properties properties = new Properties();
    properties.setProperty("cluster.id", clusterId);
    voters.forEach(
        (id, ports) ->
            properties.setProperty("node." + id, ports.broker() + ":" + ports.controller()));
    try {
      Files.createDirectories(dataDir);
      try (Writer writer = Files.newBufferedWriter(dataDir.resolve(FILE), StandardCharsets.UTF_8)) {
        properties.store(writer, "the cluster's id and its nodes' ports (client:controller)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dataDir.resolve(FILE), e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
