package dev.crawler.frontier.streams;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.DiscoveredUrl;
import java.time.Instant;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What the frontier's task writes, and its clock: records to the topology's sinks, decisions to
 * {@code crawl.outcomes} (for the committer) and {@code crawl.log}. One per task.
 */
final class FrontierOutput {

  private final ProcessorContext<String, SpecificRecord> context;
  private final CrawlLog log;
  private String configVersion = "";

  /** Whether the task has sent a request since it started. */
  private boolean requested;

  FrontierOutput(ProcessorContext<String, SpecificRecord> context, CrawlLog log) {
    this.context = context;
    this.log = log;
  }

  /** The version of the configuration the task decides with, named in its crawl-log lines. */
  void configVersion(String version) {
    this.configVersion = version;
  }

  /** The task's clock: the stream time's wall clock (virtual in tests). */
  Instant now() {
    return Instant.ofEpochMilli(context.currentSystemTimeMs());
  }

  /**
   * Sends a fetch or render request for the origin. The task's first asks Kafka Streams to commit
   * once the record in hand is processed, instead of at the end of the commit interval: a fetcher
   * reads only committed requests, so the first request of a crawl, and the first after the task
   * moved to this instance, reach the fetchers up to {@code commit.interval.ms} sooner. The others
   * wait for the interval, as every output of a batch shares its transaction.
   */
  void request(String sink, String origin, SpecificRecord request, Instant now) {
    forward(sink, origin, request, now);
    if (!requested) {
      requested = true;
      context.commit();
    }
  }

  /**
   * An origin has nothing in flight and nothing queued any more: asks Kafka Streams to commit once
   * the record in hand is processed, as nothing of the origin follows that the interval would
   * gather. The end of a crawl, or of a site, is then seen (a consumer reads committed outcomes
   * only) without waiting for the interval; mid-crawl it happens once per origin that runs dry.
   */
  void originDone() {
    context.commit();
  }

  void forward(String sink, String key, SpecificRecord value, Instant now) {
    if (value instanceof CrawlLogEntry entry && entry.getConfigVersion() == null) {
      entry.setConfigVersion(configVersion);
    }
    context.forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  /** Logs a decision about a discovered URL, naming the page it was found on. */
  void log(String origin, Decision decision, DiscoveredUrl discovered, Instant now) {
    Decision withSource =
        discovered.getSourceUrl() == null
            ? decision
            : decision.withSource(discovered.getSourceUrl());
    forward(FrontierTopology.LOG_SINK, origin, log.entry(withSource, now), now);
  }

  /** Writes a line to crawl.log only, keyed as given (an operator's command: its target). */
  void logOnly(String key, Decision decision, Instant now) {
    forward(FrontierTopology.LOG_SINK, key, log.entry(decision, now), now);
  }

  /** Writes a frontier decision to crawl.outcomes (for the committer) and crawl.log. */
  void emit(String origin, Decision decision, Instant now) {
    forward(
        FrontierTopology.OUTCOMES_SINK,
        origin,
        decision.toOutcome(FrontierProcessor.SERVICE, now).build(),
        now);
    forward(FrontierTopology.LOG_SINK, origin, log.entry(decision, now), now);
  }
}
