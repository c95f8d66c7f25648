package dev.crawler.frontier.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.schemas.Origin;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the frontier's task asks Kafka Streams to commit before the commit interval ends: with the
 * task's first request, and when an origin has nothing in flight and nothing queued any more (the
 * end of a crawl, or of a site, is then seen at once). Not for the outcomes in between.
 */
class FrontierCommitRequestsTest {

  private static final Instant NOW = Instant.parse("2026-01-05T10:00:00Z");
  private static final String A = "http://a.example";
  private static final String B = "http://b.example";

  private final MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
  private FrontierProcessor processor;

  @BeforeEach
  void start() {
    context.setCurrentSystemTimeMs(NOW.toEpochMilli());
    addStore(FrontierTopology.URLS_STORE, FrontierTopology.URL_STATE_SERDE);
    addStore(FrontierTopology.ORIGINS_STORE, FrontierTopology.ORIGIN_STATE_SERDE);
    addStore(FrontierTopology.QUEUE_STORE, Serdes.String());
    addStore(FrontierTopology.LEASES_STORE, FrontierTopology.LEASE_SERDE);
    addStore(FrontierTopology.CONTROL_STORE, Serdes.Long());
    addStore(FrontierTopology.DUE_STORE, Serdes.String());
    addStore(FrontierTopology.OPERATOR_STORE, Serdes.String());
    CrawlConfig crawl =
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(CrawlOption.MAX_DEPTH, 2, CrawlOption.SITEMAP_XML, false));
    // a window of 2 per origin
    FrontierSettings settings =
        new FrontierSettings(crawl, List.of(), 0, 2, Duration.ofSeconds(60), 3);
    processor =
        new FrontierProcessor(
            settings,
            ReleaseBudget.of(0),
            new FrontierMetrics(new SimpleMeterRegistry()),
            new CrawlLog("frontier", new SimpleMeterRegistry()));
    processor.init(context);
  }

  @Test
  void anOriginLeftWithNothingInFlightOrQueuedIsCommittedAtOnce() {
    discover(A + "/", 0);
    assertThat(context.committed()).as("the task's first request").isTrue();
    context.resetCommit();

    discover(A + "/1", 1);
    discover(A + "/2", 1);
    discover(B + "/", 0);
    List<FetchRequest> released = requests();
    assertThat(released)
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/", A + "/1", B + "/");
    assertThat(context.committed()).as("later requests wait for the interval").isFalse();

    fetched(released.get(0));
    assertThat(context.committed()).as("a's third URL goes out in its place").isFalse();
    fetched(released.get(1));
    assertThat(context.committed()).as("a's third URL is still in flight").isFalse();

    fetched(requests().get(3));
    assertThat(context.committed()).as("nothing of a in flight or queued").isTrue();
    context.resetCommit();

    fetched(released.get(2));
    assertThat(context.committed()).as("nothing of b in flight or queued").isTrue();
  }

  @Test
  void anOutcomeThatQueuesItsUrlAgainDoesNotAskForACommit() {
    discover(A + "/", 0);
    context.resetCommit();

    // deferred (the fetcher could not fetch it yet): queued again, and released again at once
    process(A, outcomeOf(requests().get(0), Outcome.DEFERRED).build());

    assertThat(context.committed()).as("the URL is queued or in flight again").isFalse();
  }

  private void discover(String url, int depth) {
    process(
        Origin.keyOf(url),
        DiscoveredUrl.newBuilder()
            .setUrl(url)
            .setDepth(depth)
            .setKind(depth == 0 ? UrlKind.SEED : UrlKind.LINK)
            .setSourceUrl(depth == 0 ? null : A + "/")
            .setDiscoveredAt(NOW)
            .build());
  }

  private void fetched(FetchRequest request) {
    process(Origin.keyOf(request.getUrl()), outcomeOf(request, Outcome.COMMITTED).build());
  }

  private void process(String key, SpecificRecord value) {
    processor.process(new Record<>(key, value, NOW.toEpochMilli()));
  }

  private List<FetchRequest> requests() {
    return context.forwarded().stream()
        .filter(
            forward ->
                forward.childName().orElseThrow().equals(FrontierTopology.FETCH_REQUESTS_SINK))
        .map(forward -> (FetchRequest) forward.record().value())
        .toList();
  }

  private static CrawlOutcome.Builder outcomeOf(FetchRequest request, Outcome outcome) {
    return CrawlOutcome.newBuilder()
        .setUrl(request.getUrl())
        .setRequestId(request.getRequestId())
        .setOutcome(outcome)
        .setAttempt(request.getAttempt())
        .setDepth(request.getDepth())
        .setService("parser");
  }

  private <V> void addStore(String name, Serde<V> values) {
    KeyValueStore<String, V> store =
        Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), values)
            .withLoggingDisabled()
            .build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
  }
}
