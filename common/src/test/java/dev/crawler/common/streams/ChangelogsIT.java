package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.embedded.junit.KafkaClusterExtension;
import dev.crawler.embedded.junit.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The changelogs a service creates before it joins its group are the ones Kafka Streams would have
 * created, against a real broker: the same names, partition counts and topic configuration, for
 * cached and uncached stores in two sub-topologies of different partition counts, and none for a
 * global store; and Kafka Streams runs on them.
 */
@ExtendWith(KafkaClusterExtension.class)
class ChangelogsIT {

  @Test
  void theChangelogsMadeAheadAreTheOnesKafkaStreamsMakes(TestCluster cluster) throws Exception {
    String in = cluster.uniqueId("changelogs-in");
    String other = cluster.uniqueId("changelogs-other");
    String global = cluster.uniqueId("changelogs-global");
    cluster
        .admin()
        .createTopics(
            List.of(
                new NewTopic(in, 3, (short) 1),
                new NewTopic(other, 2, (short) 1),
                new NewTopic(global, 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);

    String byStreams = cluster.uniqueId("by-streams");
    Properties streamsMade = settings(cluster, byStreams).streamsProperties();
    try (KafkaStreams streams = new KafkaStreams(topology(in, other, global), streamsMade)) {
      streams.start();
      await("Kafka Streams running")
          .atMost(Duration.ofSeconds(90))
          .until(() -> streams.state() == KafkaStreams.State.RUNNING);
    }

    String ahead = cluster.uniqueId("ahead");
    Changelogs.create(
        cluster.admin(),
        topology(in, other, global).describe(),
        new StreamsConfig(settings(cluster, ahead).streamsProperties()));

    Map<String, String> made = changelogsOf(cluster, byStreams);
    assertThat(made.keySet())
        .containsExactlyInAnyOrder("alpha-changelog", "beta-changelog", "gamma-changelog");
    assertThat(changelogsOf(cluster, ahead)).isEqualTo(made);
    assertThat(made.get("alpha-changelog")).startsWith("3 partitions");
    assertThat(made.get("gamma-changelog")).startsWith("2 partitions");
    assertThat(made.get("alpha-changelog"))
        .contains(
            "cleanup.policy=compact", "message.timestamp.type=CreateTime", "max.message.bytes");

    // and a service starts on the changelogs made ahead
    StreamsService service =
        StreamsService.start(settings(cluster, ahead), topology(in, other, global));
    try {
      await("the service running on them")
          .atMost(Duration.ofSeconds(90))
          .until(() -> service.streams().state() == KafkaStreams.State.RUNNING);
    } finally {
      service.close();
    }
    assertThat(changelogsOf(cluster, ahead)).isEqualTo(made);
  }

  /**
   * Per changelog of the application (its name after the application id), its partitions and
   * configuration set on it.
   */
  private static Map<String, String> changelogsOf(TestCluster cluster, String applicationId)
      throws Exception {
    String prefix = applicationId + "-";
    List<String> names =
        cluster.admin().listTopics().names().get(30, TimeUnit.SECONDS).stream()
            .filter(name -> name.startsWith(prefix))
            .toList();
    var descriptions =
        cluster.admin().describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
    Map<ConfigResource, Config> configs =
        cluster
            .admin()
            .describeConfigs(
                names.stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList())
            .all()
            .get(30, TimeUnit.SECONDS);
    Map<String, String> changelogs = new TreeMap<>();
    for (String name : names) {
      String set =
          configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name)).entries().stream()
              .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
              .map(e -> e.name() + "=" + e.value())
              .sorted()
              .collect(Collectors.joining(", "));
      changelogs.put(
          name.substring(prefix.length()),
          descriptions.get(name).partitions().size() + " partitions, " + set);
    }
    return changelogs;
  }

  /**
   * Two sub-topologies: one on {@code in} with a cached and an uncached store, one on {@code other}
   * with one store; and a global store on {@code global}.
   */
  private static Topology topology(String in, String other, String global) {
    Topology topology = new Topology();
    topology.addSource("in", new StringDeserializer(), new StringDeserializer(), in);
    topology.addProcessor("keep", Keep::new, "in");
    StateStores.add(topology, "alpha", Serdes.String(), Serdes.String(), "keep");
    StateStores.addUncached(topology, "beta", Serdes.String(), Serdes.String(), "keep");
    topology.addSource("other", new StringDeserializer(), new StringDeserializer(), other);
    topology.addProcessor("keep-other", Keep::new, "other");
    StateStores.add(topology, "gamma", Serdes.String(), Serdes.String(), "keep-other");
    topology.addGlobalStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore("delta"), Serdes.String(), Serdes.String())
            .withLoggingDisabled(),
        "global",
        new StringDeserializer(),
        new StringDeserializer(),
        global,
        "keep-global",
        Keep::new);
    return topology;
  }

  /** Processes nothing of note: the stores are what the test is about. */
  private static final class Keep implements Processor<String, String, Void, Void> {
    @Override
    public void process(Record<String, String> record) {}
  }

  private static PlainStreamsSettings settings(TestCluster cluster, String applicationId) {
    return new PlainStreamsSettings(
        Map.of(
            ServiceConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
            ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG, cluster.schemaRegistryUrl(),
            StreamsServiceConfig.APPLICATION_ID_CONFIG, applicationId,
            StreamsServiceConfig.STATE_DIR_CONFIG,
                cluster.newDirectory(applicationId + "-state").toString()));
  }
}
