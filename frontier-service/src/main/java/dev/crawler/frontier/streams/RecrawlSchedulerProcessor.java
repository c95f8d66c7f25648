package dev.crawler.frontier.streams;

import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.RecrawlDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.recrawl.RecrawlPolicy;
import dev.crawler.frontier.recrawl.RecrawlScheduler;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Site;
import dev.crawler.frontier.state.RecrawlDocumentState;
import dev.crawler.frontier.state.RecrawlScheduleState;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-driven recrawl in the running system: one task (its input topic has one partition)
 * keeps every configured site's documents in a {@link RecrawlScheduler}, fires an event every
 * {@code recrawl.interval} by the wall clock, and writes each run as a {@code RECRAWL} discovery of
 * the page to {@code crawl.discovered}, which the frontier task owning the page's origin releases
 * at once.
 *
 * <p>The scheduler lives in memory and is rebuilt from the stores {@value
 * FrontierTopology#RECRAWL_DOCUMENTS_STORE} and {@value FrontierTopology#RECRAWL_SCHEDULE_STORE}
 * when the task starts. An event's store updates and its requests are written in one transaction
 * (the services run exactly-once), so a restart neither skips nor repeats an event; events missed
 * while nothing ran fire one per tick after the restart, each with its runs, and the fetchers'
 * politeness paces the requests as always. Not thread-safe (Streams does not need it to be).
 */
final class RecrawlSchedulerProcessor
    implements Processor<String, RecrawlDocument, String, DiscoveredUrl> {

  private static final Logger LOG = LoggerFactory.getLogger(RecrawlSchedulerProcessor.class);

  /** The key of the schedule's one entry. */
  static final String SCHEDULE_KEY = "schedule";

  /** How often the wall clock is looked at. */
  static final Duration TICK = Duration.ofSeconds(1);

  private final CrawlConfig config;
  private final boolean isActive;
  private final Duration interval;
  private final Set<String> siteNames = new HashSet<>();
  private @Nullable ProcessorContext<String, DiscoveredUrl> context;
  private @Nullable KeyValueStore<String, RecrawlDocumentState> documents;
  private @Nullable KeyValueStore<String, RecrawlScheduleState> schedule;
  private RecrawlScheduler scheduler = new RecrawlScheduler();

  RecrawlSchedulerProcessor(CrawlConfig config) {
    this.config = config;
    this.isActive = config.globalValue(CrawlOption.RECRAWL_ACTIVE);
    this.interval = config.globalValue(CrawlOption.RECRAWL_INTERVAL);
  }

  @Override
  public void init(ProcessorContext<String, DiscoveredUrl> context) {
    this.context = context;
    this.documents = context.getStateStore(FrontierTopology.RECRAWL_DOCUMENTS_STORE);
    this.schedule = context.getStateStore(FrontierTopology.RECRAWL_SCHEDULE_STORE);
    // a task revived after an aborted transaction starts again from what the stores committed
    this.scheduler = new RecrawlScheduler();
    for (Site site : config.sites()) {
      scheduler.site(site.name(), RecrawlPolicy.of(config, site));
      siteNames.add(site.name());
    }
    try (KeyValueIterator<String, RecrawlDocumentState> all = documents().all()) {
      while (all.hasNext()) {
        KeyValue<String, RecrawlDocumentState> entry = all.next();
        RecrawlDocumentState state = entry.value;
        if (siteNames.contains(state.getSite())) {
          Optional<Instant> last =
              state.getLastRecrawledAt().toEpochMilli() == 0
                  ? Optional.empty()
                  : Optional.of(state.getLastRecrawledAt());
          scheduler.restore(
              state.getSite(),
              entry.key,
              state.getPages(),
              state.getPublishedAt(),
              new RecrawlScheduler.Recrawls(state.getCount(), last));
        }
      }
    }
    RecrawlScheduleState saved = schedule().get(SCHEDULE_KEY);
    if (saved != null) {
      if (saved.getLastSite() != null) {
        scheduler.resumeAfter(saved.getLastSite());
      }
      saved
          .getProgress()
          .forEach(
              (key, nextPage) -> {
                int tab = key.indexOf('\t');
                String site = key.substring(0, tab);
                if (siteNames.contains(site)) {
                  scheduler.resume(
                      site, new RecrawlScheduler.Progress(key.substring(tab + 1), nextPage));
                }
              });
    }
    if (isActive) {
      LOG.info(
          "Recrawl events every {} over {} site(s), {} document(s) scheduled",
          interval,
          siteNames.size(),
          scheduler.size());
    }
    context.schedule(TICK, PunctuationType.WALL_CLOCK_TIME, this::tick);
  }

  @Override
  public void process(Record<String, RecrawlDocument> record) {
    String url = record.key();
    if (url == null) {
      return;
    }
    RecrawlDocument document = record.value();
    if (document == null) {
      scheduler.remove(url);
      documents().delete(url);
      return;
    }
    if (!siteNames.contains(document.getSite())) {
      return; // a site since removed from the configuration
    }
    if (scheduler.document(
        document.getSite(), url, document.getPages(), document.getPublishedAt())) {
      documents().put(url, state(url, document.getSite()));
    }
  }

  /** Fires the event that is due, if any: at most one per tick. */
  private void tick(long timestamp) {
    if (!isActive) {
      return;
    }
    Instant now = Instant.ofEpochMilli(timestamp);
    RecrawlScheduleState state = schedule().get(SCHEDULE_KEY);
    if (state == null) {
      state = RecrawlScheduleState.newBuilder().build();
    }
    Instant due = state.getNextEventAt();
    if (due.toEpochMilli() != 0 && now.isBefore(due)) {
      return;
    }
    RecrawlScheduler.Event event = scheduler.fire(now);
    Map<String, Integer> progress = new HashMap<>();
    for (Site site : config.sites()) {
      scheduler
          .progress(site.name())
          .ifPresent(p -> progress.put(site.name() + "\t" + p.document(), p.nextPage()));
    }
    Set<String> recrawled = new HashSet<>();
    for (RecrawlScheduler.Run run : event.runs()) {
      recrawled.add(run.document());
      request(run, now);
    }
    for (String url : recrawled) {
      documents().put(url, state(url, event.site().orElseThrow()));
    }
    // the next event keeps to the grid of the first; one
    // missed while nothing ran fires at the next tick
    Instant next = (due.toEpochMilli() == 0 ? now : due).plus(interval);
    schedule()
        .put(
            SCHEDULE_KEY,
            RecrawlScheduleState.newBuilder()
                .setNextEventAt(next)
                .setLastSite(scheduler.lastSite().orElse(null))
                .setEvents(state.getEvents() + 1)
                .setProgress(progress)
                .build());
    event
        .site()
        .ifPresent(
            site ->
                LOG.info(
                    "Recrawl event at {}: {} run(s) for site {}: {}",
                    now,
                    event.runs().size(),
                    site,
                    event.runs().stream().map(RecrawlScheduler.Run::page).toList()));
  }

  private void request(RecrawlScheduler.Run run, Instant now) {
    String origin;
    try {
      origin = Origin.keyOf(run.page());
    } catch (InvalidUrlException e) {
      LOG.warn("Recrawl of {} skipped: not a crawlable URL ({})", run.page(), e.getMessage());
      return;
    }
    DiscoveredUrl discovered =
        DiscoveredUrl.newBuilder()
            .setUrl(run.page())
            .setSourceUrl(run.document())
            .setDepth(0)
            .setKind(UrlKind.RECRAWL)
            .setDiscoveredAt(now)
            .build();
    context().forward(new Record<>(origin, discovered, now.toEpochMilli()));
  }

  private RecrawlDocumentState state(String url, String site) {
    RecrawlScheduler.Recrawls recrawls = scheduler.recrawls(url).orElseThrow();
    return RecrawlDocumentState.newBuilder()
        .setSite(site)
        .setPages(scheduler.pages(url))
        .setPublishedAt(scheduler.publishedAt(url))
        .setCount(recrawls.count())
        .setLastRecrawledAt(recrawls.lastRecrawledAt().orElse(Instant.EPOCH))
        .build();
  }

  private ProcessorContext<String, DiscoveredUrl> context() {
    return Objects.requireNonNull(context, "not initialized");
  }

  private KeyValueStore<String, RecrawlDocumentState> documents() {
    return Objects.requireNonNull(documents, "not initialized");
  }

  private KeyValueStore<String, RecrawlScheduleState> schedule() {
    return Objects.requireNonNull(schedule, "not initialized");
  }
}
