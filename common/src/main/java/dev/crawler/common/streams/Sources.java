package dev.crawler.common.streams;

import dev.crawler.schemas.TopicSpec;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;

/** Source nodes of a topology, typed by the topic catalogue. */
public final class Sources {

  private Sources() {}

  /** Adds a source reading {@code topic} with its serdes. */
  public static void add(Topology topology, String name, TopicSpec<String, ?> topic) {
    topology.addSource(
        name, topic.keySerde().deserializer(), topic.valueSerde().deserializer(), topic.name());
  }

  /**
   * Adds a source reading {@code topic}'s keys with their serde and its values as their bytes, for
   * a processor that decodes (with the topic's value serde) only the few records it needs: a value
   * it cannot decode then fails its processing, and goes to the dead letters as one that could not
   * be read would.
   */
  public static void addUndecoded(Topology topology, String name, TopicSpec<String, ?> topic) {
    topology.addSource(
        name, topic.keySerde().deserializer(), Serdes.ByteArray().deserializer(), topic.name());
  }
}
