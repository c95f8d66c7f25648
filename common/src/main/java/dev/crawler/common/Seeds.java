package dev.crawler.common;

import dev.crawler.common.kafka.ClientSettings;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * Seeds into a crawl: each URL goes to {@code crawl.discovered} as a discovered URL of kind seed,
 * keyed by its origin, so the frontier task owning the origin brings it into scope and queues the
 * URL (a URL it knows already changes nothing). Used by {@code crawler crawl}, {@code crawler seed}
 * and the frontier's start (the seeds of its crawl.yaml).
 */
public final class Seeds {

  private Seeds() {}

  /** Seeds Kafka did not take: each with why. */
  public static final class NotSentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Map<String, String> failures;

    NotSentException(Map<String, String> failures) {
      super(
          failures.size()
              + " seed(s) not sent: "
              + failures.entrySet().stream()
                  .map(failure -> failure.getKey() + " (" + failure.getValue() + ")")
                  .collect(Collectors.joining(", ")));
      this.failures = Map.copyOf(failures);
    }

    /** Each seed not sent, with why. */
    public Map<String, String> failures() {
      return failures;
    }
  }

  /**
   * Sends the seeds and waits until Kafka has acknowledged them all.
   *
   * @param kafka the producer's connection settings (bootstrap servers and any client settings)
   * @param seeds normalized http(s) URLs
   * @throws dev.crawler.schemas.InvalidUrlException when a seed is not an http(s) URL; seeds before
   *     it are sent
   * @throws NotSentException naming every seed Kafka did not acknowledge, and why
   */
  public static void send(
      Map<String, Object> kafka, Topics topics, List<String> seeds, Instant now) {
    // an operator waits for the answer: a cluster or a topic that is not there is said in seconds
    Map<String, Object> properties = ClientSettings.of(kafka).commandProducer();
    var topic = topics.discovered();
    try (KafkaProducer<String, DiscoveredUrl> producer =
        new KafkaProducer<>(
            properties, topic.keySerde().serializer(), topic.valueSerde().serializer())) {
      Map<String, Future<RecordMetadata>> sent = new LinkedHashMap<>();
      Map<String, String> failures = new LinkedHashMap<>();
      for (String seed : seeds) {
        DiscoveredUrl discovered =
            DiscoveredUrl.newBuilder()
                .setUrl(seed)
                .setDepth(0)
                .setKind(UrlKind.SEED)
                .setDiscoveredAt(now)
                .build();
        try {
          sent.put(
              seed,
              producer.send(new ProducerRecord<>(topic.name(), Origin.keyOf(seed), discovered)));
        } catch (KafkaException e) {
          failures.put(seed, e.getMessage());
        }
      }
      producer.flush();
      sent.forEach(
          (seed, acknowledgement) -> {
            try {
              acknowledgement.get();
            } catch (ExecutionException e) {
              failures.put(seed, String.valueOf(e.getCause().getMessage()));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              failures.put(seed, "interrupted");
            }
          });
      if (!failures.isEmpty()) {
        throw new NotSentException(failures);
      }
    }
  }
}
