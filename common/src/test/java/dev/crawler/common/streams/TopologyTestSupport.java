package dev.crawler.common.streams;

import dev.crawler.events.DeadLetter;
import dev.crawler.schemas.TopicSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * What the Streams services' topology tests share: a driver set up like the service, typed topics.
 */
public final class TopologyTestSupport {

  private TopologyTestSupport() {}

  /**
   * A driver for the topology, with the dead-letter handler installed as the service has it.
   *
   * @param service the service's name, as in dead letters
   * @param start the driver's wall-clock and stream time at the start
   */
  public static TopologyTestDriver driver(
      Topology topology,
      TopicSpec<String, DeadLetter> deadLetters,
      String service,
      Path stateDir,
      Instant start) {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, service + "-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    DeadLetterHandler.install(properties, deadLetters, service);
    return new TopologyTestDriver(topology, properties, start);
  }

  public static <V> TestInputTopic<String, V> input(
      TopologyTestDriver driver, TopicSpec<String, V> topic) {
    return driver.createInputTopic(
        topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
  }

  public static <V> TestOutputTopic<String, V> output(
      TopologyTestDriver driver, TopicSpec<String, V> topic) {
    return driver.createOutputTopic(
        topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer());
  }
}
