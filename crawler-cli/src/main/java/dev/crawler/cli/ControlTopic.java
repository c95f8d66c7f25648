package dev.crawler.cli;

import dev.crawler.events.ControlCommand;
import dev.crawler.schemas.Topics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;

/**
 * Operators' commands to the frontier: one copy to every partition of crawl.control, so every task
 * receives it.
 */
public final class ControlTopic {

  private ControlTopic() {}

  /**
   * Sends the command to every partition and waits until all are acknowledged.
   *
   * @param kafka the producer's connection settings (bootstrap servers and any client settings)
   * @return the partitions it went to
   */
  public static int broadcast(Map<String, Object> kafka, Topics topics, ControlCommand command)
      throws InterruptedException, ExecutionException {
    Map<String, Object> properties = new HashMap<>(kafka);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, ControlCommand> producer =
        new KafkaProducer<>(
            properties,
            topics.control().keySerde().serializer(),
            topics.control().valueSerde().serializer())) {
      int partitions = 0;
      for (PartitionInfo partition : producer.partitionsFor(topics.control().name())) {
        producer
            .send(new ProducerRecord<>(topics.control().name(), partition.partition(), "", command))
            .get();
        partitions++;
      }
      return partitions;
    }
  }
}
