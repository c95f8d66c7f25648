package dev.crawler.cli;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler seed URL...}: adds seeds to a running crawl. Each goes to {@code crawl.discovered}
 * as a discovered URL of kind seed, keyed by its origin, so the frontier task owning the origin brings
 * the origin into scope and queues the URL (a URL it knows already changes nothing). Every URL is
 * checked first: one that is not an http(s) URL stops the command, naming it, and nothing is sent.
 */
@Command(name = "seed", mixinStandardHelpOptions = true, description = "Add seed URLs to a running crawl.")
public final class SeedCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Parameters(arity = "1..*", paramLabel = "URL", description = "The seeds: http:// or https:// URLs.")
  List<String> urls;

  @Override
  public Integer call() throws Exception {
    List<String> seeds = new ArrayList<>();
    for (String url : urls) {
      try {
        seeds.add(UrlNormalizer.normalize(url));
      } catch (InvalidUrlException e) {
        spec.commandLine().getErr().println("crawler: not a seed URL: " + url + " (" + e.getMessage() + ")");
        return CrawlerCli.USAGE_ERROR;
      }
    }
    Topics topics = cluster.topics();
    Map<String, Object> properties = cluster.kafkaProperties();
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    Instant now = Instant.now();
    try (KafkaProducer<String, DiscoveredUrl> producer =
        new KafkaProducer<>(properties, topics.discovered().keySerde().serializer(), topics.discovered().valueSerde().serializer())) {
      for (String seed : seeds) {
        DiscoveredUrl discovered = DiscoveredUrl.newBuilder().setUrl(seed).setDepth(0).setKind(UrlKind.SEED).setDiscoveredAt(now).build();
        producer.send(new ProducerRecord<>(topics.discovered().name(), Origin.keyOf(seed), discovered)).get();
      }
    }
    spec.commandLine().getOut().println(seeds.size() + " seed(s) sent to " + topics.discovered().name());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
