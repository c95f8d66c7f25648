package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** Which changelogs a service makes ahead, and with how many partitions. */
class ChangelogsTest {

  private static final StreamsConfig CONFIG =
      new StreamsConfig(
          Map.of(
              StreamsConfig.APPLICATION_ID_CONFIG,
              "app",
              StreamsConfig.BOOTSTRAP_SERVERS_CONFIG,
              "127.0.0.1:9",
              StreamsConfig.topicPrefix("max.message.bytes"),
              "1000"));

  @Test
  void aSubTopologyOfSeveralSourcesHasAsManyTasksAsItsLargestSource() {
    Topology topology = new Topology();
    topology.addSource(
        "urls", new StringDeserializer(), new StringDeserializer(), "urls", "control");
    topology.addSource("outcomes", new StringDeserializer(), new StringDeserializer(), "outcomes");
    topology.addProcessor("keep", Keep::new, "urls", "outcomes");
    StateStores.add(topology, "changelogs-test-queue", Serdes.String(), Serdes.String(), "keep");
    StateStores.addUncached(
        topology, "changelogs-test-seen", Serdes.String(), Serdes.String(), "keep");

    var changelogs =
        Changelogs.of(topology.describe(), CONFIG, Map.of("urls", 4, "control", 1, "outcomes", 2));

    assertThat(changelogs)
        .extracting(NewTopic::name)
        .containsExactly(
            "app-changelogs-test-queue-changelog", "app-changelogs-test-seen-changelog");
    assertThat(changelogs).allSatisfy(topic -> assertThat(topic.numPartitions()).isEqualTo(4));
    assertThat(changelogs.get(0).configs())
        .containsEntry("cleanup.policy", "compact")
        .containsEntry("message.timestamp.type", "CreateTime")
        .containsEntry("max.message.bytes", "1000");
    assertThat(changelogs.get(0).replicationFactor()).isEqualTo((short) -1);
  }

  @Test
  void storesNotMadeByStateStoresAndSubTopologiesOfUnknownSourcesAreLeftToKafkaStreams() {
    Topology topology = new Topology();
    topology.addSource("known", new StringDeserializer(), new StringDeserializer(), "known");
    topology.addProcessor("keep-known", Keep::new, "known");
    StateStores.add(
        topology, "changelogs-test-kept", Serdes.String(), Serdes.String(), "keep-known");
    topology.addStateStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore("changelogs-test-own"),
                Serdes.String(),
                Serdes.String())
            .withLoggingEnabled(Map.of("retention.ms", "1000")),
        "keep-known");
    topology.addSource("missing", new StringDeserializer(), new StringDeserializer(), "missing");
    topology.addProcessor("keep-missing", Keep::new, "missing");
    StateStores.add(
        topology, "changelogs-test-m", Serdes.String(), Serdes.String(), "keep-missing");
    topology.addSource(
        "pattern", new StringDeserializer(), new StringDeserializer(), Pattern.compile("p-.*"));
    topology.addProcessor("keep-pattern", Keep::new, "pattern");
    StateStores.add(
        topology, "changelogs-test-p", Serdes.String(), Serdes.String(), "keep-pattern");

    var changelogs = Changelogs.of(topology.describe(), CONFIG, Map.of("known", 3));

    assertThat(changelogs)
        .extracting(NewTopic::name)
        .containsExactly("app-changelogs-test-kept-changelog");
    assertThat(Changelogs.sourceTopics(topology.describe()))
        .containsExactlyInAnyOrder("known", "missing");
  }

  @Test
  void aTopologyWithoutStoresHasNoChangelogsToMake() {
    Topology topology = new Topology();
    topology.addSource("in", new StringDeserializer(), new StringDeserializer(), "in");
    topology.addProcessor("keep", Keep::new, "in");

    assertThat(Changelogs.sourceTopics(topology.describe())).isEmpty();
    assertThat(Changelogs.of(topology.describe(), CONFIG, Map.of("in", 4))).isEmpty();
  }

  /** Processes nothing of note: the stores are what the test is about. */
  private static final class Keep implements Processor<String, String, Void, Void> {
    @Override
    public void process(Record<String, String> record) {}
  }
}
