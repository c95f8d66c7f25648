package dev.crawler.common.streams;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The changelog topics of a topology's stores, created while the instance joins its group.
 *
 * <p>Kafka Streams creates a changelog when its group's leader first assigns the tasks, then asks
 * the broker again after its main consumer's {@code retry.backoff.ms} until every partition has a
 * leader: a new frontier, seven stores on four partitions, waited 0.6–0.9 s there before its first
 * task could start. Asked for while the instance joins, the broker has them made by the time the
 * leader looks, and Kafka Streams finds them as it would have made them. When the leader looks
 * while the broker is still making them, it is told they exist and looks again, 10 ms later ({@link
 * StreamsServiceConfig#INTERNAL_TOPIC_RETRY_BACKOFF_MS}) per changelog.
 *
 * <p>"As it would have made them": the name {@code <application.id>-<store>-changelog}, as many
 * partitions as the store's sub-topology has tasks (its largest source topic's partition count),
 * the replication factor of {@code replication.factor}, and the configuration Kafka Streams gives a
 * key-value store's changelog: compacted, record timestamps as created, under every {@code topic.*}
 * setting of the instance. Only the stores {@link StateStores} made are counted (logged key-value
 * stores, no configuration of their own): a windowed store, or one with a changelog configuration
 * of its own, is left to Kafka Streams. {@code ChangelogsIT} compares the topics made here with
 * those Kafka Streams makes.
 *
 * <p>Only a head start: a topic that exists is left as it is (Kafka Streams checks its partition
 * count), and one that cannot be made here is made by Kafka Streams as before.
 */
final class Changelogs {

  private static final Logger LOG = LoggerFactory.getLogger(Changelogs.class);

  /** How long each question to the cluster may take. */
  private static final long ANSWER_SECONDS = 10;

  private Changelogs() {}

  /**
   * The changelogs of the topology's stores that {@link StateStores} made.
   *
   * @param partitions each source topic's partition count; a sub-topology with a source topic not
   *     in it, or a pattern, gets none of its changelogs (Kafka Streams creates them)
   */
  static List<NewTopic> of(
      TopologyDescription topology, StreamsConfig config, Map<String, Integer> partitions) {
    String applicationId = config.getString(StreamsConfig.APPLICATION_ID_CONFIG);
    Optional<Short> replication =
        Optional.of(config.getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG).shortValue());
    Map<String, String> topicConfig = new HashMap<>();
    topicConfig.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
    topicConfig.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
    config
        .originalsWithPrefix(StreamsConfig.TOPIC_PREFIX)
        .forEach(
            (key, value) -> {
              if (value != null) {
                topicConfig.put(key, value.toString());
              }
            });
    List<NewTopic> changelogs = new ArrayList<>();
    for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
      Set<String> stores = new TreeSet<>();
      int tasks = 0;
      boolean sourcesKnown = true;
      for (TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Processor processor) {
          processor.stores().stream().filter(StateStores::isLoggedKeyValue).forEach(stores::add);
        } else if (node instanceof TopologyDescription.Source source) {
          if (source.topicSet() == null) {
            sourcesKnown = false; // a pattern: its topics are known once subscribed
            continue;
          }
          for (String topic : source.topicSet()) {
            Integer count = partitions.get(topic);
            sourcesKnown &= count != null;
            tasks = Math.max(tasks, count == null ? 0 : count);
          }
        }
      }
      if (!sourcesKnown || tasks == 0) {
        continue;
      }
      for (String store : stores) {
        changelogs.add(
            new NewTopic(
                    applicationId + "-" + store + "-changelog", Optional.of(tasks), replication)
                .configs(topicConfig));
      }
    }
    return changelogs;
  }

  /** The source topics of the sub-topologies with stores {@link StateStores} made. */
  static Set<String> sourceTopics(TopologyDescription topology) {
    Set<String> topics = new TreeSet<>();
    for (TopologyDescription.Subtopology subtopology : topology.subtopologies()) {
      boolean logged =
          subtopology.nodes().stream()
              .anyMatch(
                  node ->
                      node instanceof TopologyDescription.Processor processor
                          && processor.stores().stream().anyMatch(StateStores::isLoggedKeyValue));
      if (logged) {
        subtopology.nodes().forEach(node -> StreamsService.addSourceTopics(node, topics));
      }
    }
    return topics;
  }

  /**
   * Creates the changelogs of the topology's stores that are missing; waits for the controller's
   * answer (not for the partitions' leaders). A failure is logged, not thrown: Kafka Streams
   * creates what is still missing.
   */
  static void create(Admin admin, TopologyDescription topology, StreamsConfig config) {
    Set<String> sources = sourceTopics(topology);
    if (sources.isEmpty()) {
      return;
    }
    try {
      Map<String, Integer> partitions = new HashMap<>();
      for (Map.Entry<String, KafkaFuture<TopicDescription>> topic :
          admin.describeTopics(sources).topicNameValues().entrySet()) {
        try {
          partitions.put(
              topic.getKey(),
              topic.getValue().get(ANSWER_SECONDS, TimeUnit.SECONDS).partitions().size());
        } catch (ExecutionException e) {
          // a topic not there yet: its sub-topology's changelogs are left to Kafka Streams
        }
      }
      Set<String> existing = admin.listTopics().names().get(ANSWER_SECONDS, TimeUnit.SECONDS);
      List<NewTopic> missing =
          of(topology, config, partitions).stream()
              .filter(topic -> !existing.contains(topic.name()))
              .toList();
      if (missing.isEmpty()) {
        return;
      }
      List<String> created = new ArrayList<>();
      for (var answer : admin.createTopics(missing).values().entrySet()) {
        try {
          answer.getValue().get(ANSWER_SECONDS, TimeUnit.SECONDS);
          created.add(answer.getKey());
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
          // made meanwhile by Kafka Streams or another instance: as good
        }
      }
      LOG.info("Created changelogs {}", created);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      LOG.info(
          "changelogs not created ahead ({}): Kafka Streams creates them when it assigns tasks",
          e instanceof ExecutionException ? e.getCause().toString() : e.toString());
    }
  }
}
