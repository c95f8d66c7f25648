package dev.crawler.common.streams;

import dev.crawler.schemas.TopicSpec;
import org.apache.kafka.streams.Topology;

/** Source nodes of a topology, typed by the topic catalogue. */
public final class Sources {

  private Sources() {}

  /** Adds a source reading {@code topic} with its serdes. */
  public static void add(Topology topology, String name, TopicSpec<String, ?> topic) {
    topology.addSource(
        name, topic.keySerde().deserializer(), topic.valueSerde().deserializer(), topic.name());
  }
}
