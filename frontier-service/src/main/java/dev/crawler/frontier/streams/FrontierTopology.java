package dev.crawler.frontier.streams;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.streams.Sinks;
import dev.crawler.common.streams.Sources;
import dev.crawler.common.streams.StateStores;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.state.Lease;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.RecrawlDocumentState;
import dev.crawler.frontier.state.RecrawlScheduleState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.StateSerde;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The frontier as a Kafka Streams topology: one processor reads {@code crawl.discovered} and {@code
 * crawl.outcomes} (both keyed by origin, so an origin's URLs and outcomes meet in one task) and
 * writes {@code crawl.fetch-requests} and {@code crawl.log}, keeping three persistent stores:
 *
 * <ul>
 *   <li>{@value #URLS_STORE}: URL to {@link UrlState} (queued, in flight, done with its outcome);
 *   <li>{@value #ORIGINS_STORE}: origin to {@link OriginState} (in scope, queue bounds, leases);
 *   <li>{@value #QUEUE_STORE}: origin + sequence number to URL, each origin's queue;
 *   <li>{@value #LEASES_STORE}: origin + request id to {@link Lease}, the requests in flight;
 *   <li>{@value #CONTROL_STORE}: the task's state of operators' commands (when errors were last
 *       cleared);
 *   <li>{@value #DUE_STORE}: continuous refresh's due times, scanned by time;
 *   <li>{@value #OPERATOR_STORE}: what operators hold (origins paused, blocked or given a delay),
 *       one line per kind and target.
 * </ul>
 *
 * <p>When the crawl configuration names sites, two more sub-topologies run event-driven recrawl:
 * {@code crawl.documents} to the one-partition {@code crawl.recrawl-feed} ({@link
 * RecrawlFeedProcessor}), read by one {@link RecrawlSchedulerProcessor} task with the stores
 * {@value #RECRAWL_DOCUMENTS_STORE} and {@value #RECRAWL_SCHEDULE_STORE}, which writes its recrawls
 * to {@code crawl.discovered}.
 */
public final class FrontierTopology {

  public static final String URLS_STORE = "frontier-urls";
  public static final String ORIGINS_STORE = "frontier-origins";
  public static final String QUEUE_STORE = "frontier-queue";
  public static final String LEASES_STORE = "frontier-leases";
  public static final String CONTROL_STORE = "frontier-control";
  public static final String OPERATOR_STORE = "frontier-operator";

  /**
   * What operators hold, as the operator store of a task keeps it: a hold per target, besides its
   * own entries (keys starting with {@code ~}).
   */
  public static OperatorHolds holdsIn(ReadOnlyKeyValueStore<String, String> operatorStore) {
    OperatorHolds holds = new OperatorHolds();
    try (KeyValueIterator<String, String> all = operatorStore.all()) {
      while (all.hasNext()) {
        KeyValue<String, String> entry = all.next();
        if (!entry.key.startsWith("~")) {
          holds.apply(OperatorHolds.Hold.decode(entry.value));
        }
      }
    }
    return holds;
  }

  /**
   * Due times of continuous refresh: key zero-padded epoch millis, a space, the URL; scanned by
   * time.
   */
  public static final String DUE_STORE = "frontier-due";

  /** The event-driven recrawl's documents: document URL to {@link RecrawlDocumentState}. */
  public static final String RECRAWL_DOCUMENTS_STORE = "recrawl-documents";

  /** Where the event-driven recrawl schedule stands: one {@link RecrawlScheduleState}. */
  public static final String RECRAWL_SCHEDULE_STORE = "recrawl-schedule";

  static final String DOCUMENTS_SOURCE = "documents";
  static final String RECRAWL_FEED_PROCESSOR = "recrawl-feed";
  static final String RECRAWL_FEED_SINK = "recrawl-feed-out";
  static final String RECRAWL_FEED_SOURCE = "recrawl-feed-in";
  static final String RECRAWL_SCHEDULER = "recrawl-scheduler";
  static final String RECRAWL_SINK = "recrawls";
  static final String DISCOVERED_SOURCE = "discovered";
  static final String OUTCOMES_SOURCE = "outcomes";
  static final String CONTROL_SOURCE = "control";
  static final String PROCESSOR = "frontier";
  static final String FETCH_REQUESTS_SINK = "fetch-requests";
  static final String RENDER_REQUESTS_SINK = "render-requests";
  static final String LOG_SINK = "log";
  static final String DISCOVERED_SINK = "discovered-rekeyed";
  static final String OUTCOMES_SINK = "outcomes-out";
  static final String STATS_SINK = "stats";

  /** The serde of {@value #ORIGINS_STORE}'s values, for interactive queries. */
  public static final Serde<OriginState> ORIGIN_STATE_SERDE = StateSerde.of(OriginState.class);

  static final Serde<UrlState> URL_STATE_SERDE = StateSerde.of(UrlState.class);

  static final Serde<Lease> LEASE_SERDE = StateSerde.of(Lease.class);

  private FrontierTopology() {}

  /**
   * The topology with a budget of its own ({@link FrontierSettings#maxPages()}).
   *
   * @param registry where the frontier's gauges and crawl-log counts go
   */
  public static Topology build(Topics topics, FrontierSettings settings, MeterRegistry registry) {
    return build(topics, settings, ReleaseBudget.of(settings.maxPages()), registry);
  }

  /**
   * The topology.
   *
   * @param budget the releases this instance may still make, shared by its tasks
   * @param registry where the frontier's gauges and crawl-log counts go
   */
  public static Topology build(
      Topics topics, FrontierSettings settings, ReleaseBudget budget, MeterRegistry registry) {
    return build(topics, settings, new ActiveConfig(settings.crawl()), budget, registry);
  }

  /**
   * The topology, deciding with the configuration in force in {@code active} (which an operator may
   * change while it runs).
   */
  public static Topology build(
      Topics topics,
      FrontierSettings settings,
      ActiveConfig active,
      ReleaseBudget budget,
      MeterRegistry registry) {
    Topology topology = new Topology();
    Sources.add(topology, DISCOVERED_SOURCE, topics.discovered());
    Sources.add(topology, OUTCOMES_SOURCE, topics.outcomes());
    Sources.add(topology, CONTROL_SOURCE, topics.control());
    FrontierMetrics metrics = new FrontierMetrics(registry);
    CrawlLog log = new CrawlLog(FrontierProcessor.SERVICE, registry);
    topology.addProcessor(
        PROCESSOR,
        () -> new FrontierProcessor(settings, active, budget, metrics, log),
        DISCOVERED_SOURCE,
        OUTCOMES_SOURCE,
        CONTROL_SOURCE);
    StateStores.add(topology, CONTROL_STORE, Serdes.String(), Serdes.Long(), PROCESSOR);
    StateStores.add(topology, DUE_STORE, Serdes.String(), Serdes.String(), PROCESSOR);
    StateStores.add(topology, OPERATOR_STORE, Serdes.String(), Serdes.String(), PROCESSOR);
    // a URL's state, its queue entry and its lease are written a few times each, at
    // discovery, release and outcome, seconds and commits apart: a record cache coalesced
    // almost nothing and held back each commit to flush; uncached, a bench crawl took ~2
    // s less CPU of ~45 and crawled ~6% faster (four paired runs); FrontierScaleBenchmark
    // decides as fast up to 10^6 known URLs and faster at 10^7 (after 573 s, 7.8 million
    // URLs decided at 1.4 GB resident; cached, 5.8 million at 3.4 GB). Control, due and
    // origin state are written for every URL of an origin and stay cached.
    StateStores.addUncached(topology, URLS_STORE, Serdes.String(), URL_STATE_SERDE, PROCESSOR);
    StateStores.add(topology, ORIGINS_STORE, Serdes.String(), ORIGIN_STATE_SERDE, PROCESSOR);
    StateStores.addUncached(topology, QUEUE_STORE, Serdes.String(), Serdes.String(), PROCESSOR);
    StateStores.addUncached(topology, LEASES_STORE, Serdes.String(), LEASE_SERDE, PROCESSOR);
    Sinks.add(topology, FETCH_REQUESTS_SINK, topics.fetchRequests(), PROCESSOR);
    Sinks.add(topology, RENDER_REQUESTS_SINK, topics.renderRequests(), PROCESSOR);
    Sinks.add(topology, LOG_SINK, topics.log(), PROCESSOR);
    Sinks.add(topology, DISCOVERED_SINK, topics.discovered(), PROCESSOR);
    Sinks.add(topology, OUTCOMES_SINK, topics.outcomes(), PROCESSOR);
    Sinks.add(topology, STATS_SINK, topics.stats(), PROCESSOR);
    if (!settings.crawl().sites().isEmpty()) {
      // events recrawl documents of configured sites only: without a site every document would
      // cross the frontier for nothing. Added later, the feed reads crawl.documents from its start
      // (compacted: every document's latest event), so no document is missed.
      addRecrawlScheduler(topology, topics, settings);
    }
    return topology;
  }

  /**
   * The event-driven recrawl: crawl.documents to the one-partition crawl.recrawl-feed, read by one
   * scheduler task that writes the recrawls to crawl.discovered.
   */
  private static void addRecrawlScheduler(
      Topology topology, Topics topics, FrontierSettings settings) {
    // every document crosses this source, and only those of configured sites are decoded
    Sources.addUndecoded(topology, DOCUMENTS_SOURCE, topics.documents());
    topology.addProcessor(
        RECRAWL_FEED_PROCESSOR,
        () -> new RecrawlFeedProcessor(settings.crawl(), topics.documents()),
        DOCUMENTS_SOURCE);
    Sinks.add(topology, RECRAWL_FEED_SINK, topics.recrawlFeed(), RECRAWL_FEED_PROCESSOR);
    Sources.add(topology, RECRAWL_FEED_SOURCE, topics.recrawlFeed());
    topology.addProcessor(
        RECRAWL_SCHEDULER,
        () -> new RecrawlSchedulerProcessor(settings.crawl()),
        RECRAWL_FEED_SOURCE);
    StateStores.add(
        topology,
        RECRAWL_DOCUMENTS_STORE,
        Serdes.String(),
        StateSerde.of(RecrawlDocumentState.class),
        RECRAWL_SCHEDULER);
    StateStores.add(
        topology,
        RECRAWL_SCHEDULE_STORE,
        Serdes.String(),
        StateSerde.of(RecrawlScheduleState.class),
        RECRAWL_SCHEDULER);
    Sinks.add(topology, RECRAWL_SINK, topics.discovered(), RECRAWL_SCHEDULER);
  }
}
