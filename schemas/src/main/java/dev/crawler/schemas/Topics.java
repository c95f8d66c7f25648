package dev.crawler.schemas;

import dev.crawler.events.ArchivedExchanges;
import dev.crawler.events.ChunkEvent;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlConfiguration;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.OriginStats;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.PolitenessState;
import dev.crawler.events.RecrawlDocument;
import dev.crawler.schemas.serde.AvroSerde;
import dev.crawler.schemas.serde.SchemaRegistryClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The topic catalogue: every topic the crawler reads or writes (docs/architecture.md, "Topics and
 * wire format"), with its serdes and how it is kept. The only place topic names are spelled.
 *
 * <p>Names are a prefix plus a fixed suffix: {@code crawl.discovered} with the default prefix. A
 * different prefix lets several crawls, or several tests, share one cluster without sharing topics.
 * Keys are UTF-8 strings (an origin, or a document URL for {@link #documents()}); values are Avro
 * in the Confluent wire format. Immutable and thread-safe.
 */
public final class Topics {

  /** The prefix of the topic names unless configured otherwise. */
  public static final String DEFAULT_PREFIX = "crawl.";

  /** How long the crawl log is kept: long enough to investigate a week-end's crawl. */
  public static final Duration LOG_RETENTION = Duration.ofDays(7);

  private final String prefix;
  private final TopicSpec<String, DiscoveredUrl> discovered;
  private final TopicSpec<String, FetchRequest> fetchRequests;
  private final TopicSpec<String, FetchRequest> renderRequests;
  private final TopicSpec<String, PolitenessState> renderPoliteness;
  private final TopicSpec<String, ChunkEvent> chunks;
  private final TopicSpec<String, FetchResult> fetchResults;
  private final TopicSpec<String, FetchResult> imports;
  private final TopicSpec<String, ArchivedExchanges> exchanges;
  private final TopicSpec<String, ParsedDocument> parsed;
  private final TopicSpec<String, CrawlOutcome> outcomes;
  private final TopicSpec<String, DocumentEvent> documents;
  private final TopicSpec<String, CrawlLogEntry> log;
  private final TopicSpec<String, DeadLetter> deadLetters;
  private final TopicSpec<String, ControlCommand> control;
  private final TopicSpec<String, PolitenessState> politeness;
  private final TopicSpec<String, String> checksums;
  private final TopicSpec<String, RecrawlDocument> recrawlFeed;
  private final TopicSpec<String, OriginStats> stats;
  private final TopicSpec<String, CrawlConfiguration> config;

  private Topics(String prefix, SchemaRegistryClient registry) {
    if (!prefix.matches("[a-zA-Z0-9._-]*")) {
      throw new IllegalArgumentException(
          "topic prefix '" + prefix + "' may only contain letters, digits, '.', '_' and '-'");
    }
    this.prefix = prefix;
    this.discovered = byOrigin("discovered", registry, DiscoveredUrl.class);
    this.fetchRequests = byOrigin("fetch-requests", registry, FetchRequest.class);
    this.renderRequests = byOrigin("render-requests", registry, FetchRequest.class);
    this.fetchResults = byOrigin("fetch-results", registry, FetchResult.class);
    this.imports = byOrigin("imports", registry, FetchResult.class);
    this.exchanges = byOrigin("exchanges", registry, ArchivedExchanges.class);
    this.parsed = byOrigin("parsed", registry, ParsedDocument.class);
    this.outcomes = byOrigin("outcomes", registry, CrawlOutcome.class);
    this.documents =
        new TopicSpec<>(
            prefix + "documents",
            Serdes.String(),
            avro(registry, DocumentEvent.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            false);
    this.log =
        new TopicSpec<>(
            prefix + "log",
            Serdes.String(),
            avro(registry, CrawlLogEntry.class),
            CleanupPolicy.DELETE,
            Optional.of(LOG_RETENTION),
            true);
    // partitioned like the origin-keyed topics, so the frontier
    // reads it beside them; written to every partition
    this.control =
        new TopicSpec<>(
            prefix + "control",
            Serdes.String(),
            avro(registry, ControlCommand.class),
            CleanupPolicy.DELETE,
            Optional.empty(),
            true);
    // keyed by origin and partitioned like fetch-requests:
    // a fetcher reads the partitions it is assigned
    this.politeness =
        new TopicSpec<>(
            prefix + "politeness",
            Serdes.String(),
            avro(registry, PolitenessState.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            true);
    // the render tier's politeness, as the fetchers' (its own owners per origin)
    this.renderPoliteness =
        new TopicSpec<>(
            prefix + "render-politeness",
            Serdes.String(),
            avro(registry, PolitenessState.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            true);
    // keyed by chunk id: a chunk's last event is what a consumer keeps
    this.chunks =
        new TopicSpec<>(
            prefix + "chunks",
            Serdes.String(),
            avro(registry, ChunkEvent.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            false);
    // keyed by content checksum, so not by origin: every committer task reads all of it
    this.checksums =
        new TopicSpec<>(
            prefix + "checksums",
            Serdes.String(),
            Serdes.String(),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            false);
    // one partition: the event-driven recrawl schedule
    // is global across sites, so one task reads it all
    this.recrawlFeed =
        new TopicSpec<>(
            prefix + "recrawl-feed",
            Serdes.String(),
            avro(registry, RecrawlDocument.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            false,
            1);
    // one key, the configuration in force: every frontier instance reads it whole
    this.config =
        new TopicSpec<>(
            prefix + "config",
            Serdes.String(),
            avro(registry, CrawlConfiguration.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            false,
            1);
    // keyed by origin, the latest figures of each: operators read it whole (crawler status)
    this.stats =
        new TopicSpec<>(
            prefix + "stats",
            Serdes.String(),
            avro(registry, OriginStats.class),
            CleanupPolicy.COMPACT,
            Optional.empty(),
            true);
    this.deadLetters =
        new TopicSpec<>(
            prefix + "dead-letters",
            Serdes.String(),
            avro(registry, DeadLetter.class),
            CleanupPolicy.DELETE,
            Optional.empty(),
            false);
  }

  /** The catalogue with the default prefix. */
  public static Topics create(SchemaRegistryClient registry) {
    return new Topics(DEFAULT_PREFIX, registry);
  }

  /**
   * The catalogue with another prefix.
   *
   * @throws IllegalArgumentException when the prefix has characters Kafka does not allow in topic
   *     names
   */
  public static Topics create(String prefix, SchemaRegistryClient registry) {
    return new Topics(prefix, registry);
  }

  public String prefix() {
    return prefix;
  }

  /** URLs found (seeds, links, redirects, canonicals, sitemaps); cli and parser to frontier. */
  public TopicSpec<String, DiscoveredUrl> discovered() {
    return discovered;
  }

  /** URLs released for fetching; frontier to fetcher. */
  public TopicSpec<String, FetchRequest> fetchRequests() {
    return fetchRequests;
  }

  /**
   * URLs released for rendering in a headless browser (the option render); frontier to the render
   * tier, which writes their results to {@link #fetchResults()} as a fetcher does.
   */
  public TopicSpec<String, FetchRequest> renderRequests() {
    return renderRequests;
  }

  /** The render tier's politeness state per origin, compacted, as {@link #politeness()}. */
  public TopicSpec<String, PolitenessState> renderPoliteness() {
    return renderPoliteness;
  }

  /**
   * Documents' chunks for retrieval, compacted, keyed by chunk id (the option chunk-max-chars);
   * committer to downstream.
   */
  public TopicSpec<String, ChunkEvent> chunks() {
    return chunks;
  }

  /** Fetched responses; fetcher to parser. */
  public TopicSpec<String, FetchResult> fetchResults() {
    return fetchResults;
  }

  /**
   * {@code crawl.imports}: the fetch results of files (PDF, office documents) that the parser's
   * import loop reads, set aside by its topology.
   */
  public TopicSpec<String, FetchResult> imports() {
    return imports;
  }

  /**
   * {@code crawl.exchanges}: the HTTP exchanges of fetches that gave no fetch result (robots.txt,
   * redirects recorded, error statuses, 304s), for the archive; written only when the fetcher
   * records exchanges.
   */
  public TopicSpec<String, ArchivedExchanges> exchanges() {
    return exchanges;
  }

  /** Parsed documents; parser to committer. */
  public TopicSpec<String, ParsedDocument> parsed() {
    return parsed;
  }

  /** How each fetch request ended; fetcher, parser and committer to frontier. */
  public TopicSpec<String, CrawlOutcome> outcomes() {
    return outcomes;
  }

  /** Document upserts and deletions, compacted, keyed by document URL; committer to downstream. */
  public TopicSpec<String, DocumentEvent> documents() {
    return documents;
  }

  /** One entry per decision about a URL; all services to operators. */
  public TopicSpec<String, CrawlLogEntry> log() {
    return log;
  }

  /** Records that could not be decoded or processed, with the error; all services to operators. */
  public TopicSpec<String, DeadLetter> deadLetters() {
    return deadLetters;
  }

  /** Operators' commands to every frontier task (one copy per partition); operators to frontier. */
  public TopicSpec<String, ControlCommand> control() {
    return control;
  }

  /**
   * Each origin's politeness state (next request time, back-off, patience, pause), compacted;
   * written by the fetcher that owns the origin and read by its next owner after a rebalance.
   */
  public TopicSpec<String, PolitenessState> politeness() {
    return politeness;
  }

  /**
   * Content checksum to the URL whose document publishes it (a tombstone when none does any more),
   * compacted; written by the committer tasks and read by all of them, so a duplicate is recognised
   * whatever partition its URL is in.
   */
  public TopicSpec<String, String> checksums() {
    return checksums;
  }

  /**
   * The published documents of configured sites with their pages and publish date (tombstones for
   * deleted ones), compacted, one partition; the frontier turns crawl.documents into it and its
   * recrawl scheduler reads it.
   */
  public TopicSpec<String, RecrawlDocument> recrawlFeed() {
    return recrawlFeed;
  }

  /**
   * Where the crawl of each origin stands (queued, in flight, paused, done by outcome), compacted,
   * keyed by origin; the frontier publishes it every few seconds for the origins that changed, and
   * {@code crawler status} reads it.
   */
  public TopicSpec<String, OriginStats> stats() {
    return stats;
  }

  /**
   * The crawl configuration in force (crawler config apply), compacted, one partition, one key;
   * operators to every frontier instance.
   */
  public TopicSpec<String, CrawlConfiguration> config() {
    return config;
  }

  /** Every topic, in flow order. */
  public List<TopicSpec<String, ?>> all() {
    return List.of(
        discovered,
        fetchRequests,
        renderRequests,
        fetchResults,
        exchanges,
        imports,
        parsed,
        outcomes,
        documents,
        log,
        deadLetters,
        control,
        politeness,
        renderPoliteness,
        chunks,
        checksums,
        recrawlFeed,
        stats,
        config);
  }

  private <V extends SpecificRecord> TopicSpec<String, V> byOrigin(
      String suffix, SchemaRegistryClient registry, Class<V> type) {
    return new TopicSpec<>(
        prefix + suffix,
        Serdes.String(),
        avro(registry, type),
        CleanupPolicy.DELETE,
        Optional.empty(),
        true);
  }

  private static <V extends SpecificRecord> Serde<V> avro(
      SchemaRegistryClient registry, Class<V> type) {
    return AvroSerde.forValues(registry, type);
  }
}
