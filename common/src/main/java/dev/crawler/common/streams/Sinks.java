package dev.crawler.common.streams;

import dev.crawler.schemas.TopicSpec;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;

/** Sink nodes of a topology, typed by the topic catalogue. */
public final class Sinks {

  private Sinks() {}

  /**
   * Adds a sink writing to {@code topic} with its serdes. Processors forward records of several
   * value types through their sinks, so the value serializer is applied to whatever the named sink
   * receives.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static void add(
      Topology topology, String name, TopicSpec<String, ?> topic, String parent) {
    topology.addSink(
        name,
        topic.name(),
        topic.keySerde().serializer(),
        (Serializer) topic.valueSerde().serializer(),
        parent);
  }
}
