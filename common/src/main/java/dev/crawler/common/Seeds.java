package dev.crawler.common;

import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Seeds into a crawl: each URL goes to {@code crawl.discovered} as a discovered URL of kind seed,
 * keyed by its origin, so the frontier task owning the origin brings it into scope and queues the
 * URL (a URL it knows already changes nothing). Used by {@code crawler crawl}, {@code crawler seed}
 * and the frontier's start (the seeds of its crawl.yaml).
 */
public final class Seeds {

  private Seeds() {}

  /**
   * Sends the seeds and waits until Kafka has acknowledged them all.
   *
   * @param kafka the producer's connection settings (bootstrap servers and any client settings)
   * @param seeds normalized http(s) URLs
   * @throws dev.crawler.schemas.InvalidUrlException when a seed is not an http(s) URL; seeds before
   *     it are sent
   */
  public static void send(
      Map<String, Object> kafka, Topics topics, List<String> seeds, Instant now) {
    Map<String, Object> properties = new HashMap<>(kafka);
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    var topic = topics.discovered();
    try (KafkaProducer<String, DiscoveredUrl> producer =
        new KafkaProducer<>(
            properties, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      for (String seed : seeds) {
        DiscoveredUrl discovered =
            DiscoveredUrl.newBuilder()
                .setUrl(seed)
                .setDepth(0)
                .setKind(UrlKind.SEED)
                .setDiscoveredAt(now)
                .build();
        producer.send(new ProducerRecord<>(topic.name(), Origin.keyOf(seed), discovered));
      }
      producer.flush();
    }
  }
}
