package dev.crawler.frontier.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.events.FetchRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

/** The frontier task's output asks for a commit with its first request, and only then. */
class FrontierOutputTest {

  private static final Instant NOW = Instant.parse("2026-01-05T10:00:00Z");

  @Test
  void theTasksFirstRequestIsCommittedAtOnceAndTheOthersWithTheirInterval() {
    MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>();
    FrontierOutput output =
        new FrontierOutput(context, new CrawlLog("frontier", new SimpleMeterRegistry()));

    output.forward(FrontierTopology.LOG_SINK, "https://a.example", request("/"), NOW);
    assertThat(context.committed()).as("not a request").isFalse();

    output.request(FrontierTopology.FETCH_REQUESTS_SINK, "https://a.example", request("/"), NOW);
    assertThat(context.committed()).as("the task's first request").isTrue();
    assertThat(context.forwarded()).hasSize(2);

    context.resetCommit();
    output.request(FrontierTopology.FETCH_REQUESTS_SINK, "https://b.example", request("/b"), NOW);
    output.request(FrontierTopology.RENDER_REQUESTS_SINK, "https://a.example", request("/c"), NOW);
    assertThat(context.committed()).as("later requests").isFalse();
    assertThat(context.forwarded())
        .extracting(forward -> forward.childName().orElseThrow())
        .containsExactly(
            FrontierTopology.LOG_SINK,
            FrontierTopology.FETCH_REQUESTS_SINK,
            FrontierTopology.FETCH_REQUESTS_SINK,
            FrontierTopology.RENDER_REQUESTS_SINK);

    FrontierOutput afterAMove =
        new FrontierOutput(context, new CrawlLog("frontier", new SimpleMeterRegistry()));
    afterAMove.request(
        FrontierTopology.FETCH_REQUESTS_SINK, "https://a.example", request("/d"), NOW);
    assertThat(context.committed()).as("the first request of the task started again").isTrue();
  }

  private static FetchRequest request(String path) {
    FetchRequest request = new FetchRequest();
    request.setUrl("https://a.example" + path);
    request.setRequestId("r" + path);
    return request;
  }
}
