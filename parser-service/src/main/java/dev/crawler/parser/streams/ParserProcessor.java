package dev.crawler.parser.streams;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.streams.QuietCommit;
import dev.crawler.common.streams.StreamTransactions;
import dev.crawler.common.streams.StreamTransactions.Transaction;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.ParserSettings;
import dev.crawler.parser.domain.RecentLinks;
import dev.crawler.parser.domain.SitemapReader;
import dev.crawler.schemas.Origin;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parses each fetch result and writes the document and what it makes known to the frontier, or the
 * rejection ({@link ParserTopology} says where). One instance per task, each used by one stream
 * thread at a time; the links remembered as sent are the topology's, shared by its tasks.
 */
final class ParserProcessor implements Processor<String, FetchResult, String, SpecificRecord> {

  private static final Logger LOG = LoggerFactory.getLogger(ParserProcessor.class);

  /**
   * How deep sitemap indexes are followed: a sitemap named by robots.txt or a seed is at 0, the
   * sitemaps an index lists one deeper; an index at this depth lists nothing more that is read.
   */
  static final int MAX_SITEMAP_NESTING = 2;

  /** The service's name in outcomes and log entries. */
  static final String SERVICE = "parser";

  private final CrawlLog log;
  private final Timer parseDuration;

  private final BiFunction<Page, ParseOptions, ParseResult> parser;
  private final ParserSettings settings;
  private final RecentLinks recentLinks;
  private final SitemapReader sitemaps = new SitemapReader();
  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private QuietCommit quiet = QuietCommit.NEVER;

  /**
   * How long parsing a page takes (jsoup, links, text, checksums): the parser's CPU per page. One
   * timer for all tasks.
   */
  static Timer parseDuration(MeterRegistry registry) {
    return Timer.builder("crawler.parse.duration")
        .description("Time to parse one fetched page")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  /**
   * @param parser parses a page; must not throw for bad content, but whatever it throws ends as an
   *     ERROR outcome for the page
   * @param settings the media types imported
   * @param recentLinks the links sent lately by any task of the topology (locked while used): a
   *     task sees pages of every origin, since fetch results are spread over the partitions by URL
   * @param parseDuration times each page's parse ({@link #parseDuration(MeterRegistry)})
   */
  ParserProcessor(
      BiFunction<Page, ParseOptions, ParseResult> parser,
      ParserSettings settings,
      RecentLinks recentLinks,
      CrawlLog log,
      Timer parseDuration) {
    this.parser = parser;
    this.settings = settings;
    this.recentLinks = recentLinks;
    this.log = log;
    this.parseDuration = parseDuration;
  }

  /** Whether the page is a file the import loop reads (a PDF, an office document), not a page. */
  private boolean isImportedAsFile(Page page) {
    return page.body().length > 0
        && page.mediaType()
            .filter(settings::isImported)
            .filter(ParserSettings::isReadAsFile)
            .isPresent();
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.quiet = QuietCommit.of(context);
    // (re-)initialized, perhaps after its transaction aborted: the links remembered with that
    // transaction no longer hold, the others do (RecentLinks)
  }

  /**
   * Processes one fetch result.
   *
   * @throws IllegalArgumentException for a record without a value, and {@code InvalidUrlException}
   *     for one with neither a key nor a valid URL: poison records, kept by the dead-letter handler
   */
  @Override
  public void process(Record<String, FetchResult> record) {
    quiet.processed();
    FetchResult result = record.value();
    if (result == null) {
      throw new IllegalArgumentException("a record on the fetch results without a value");
    }
    String origin = record.key() != null ? record.key() : Origin.keyOf(result.getUrl());
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    ParserOutputs outputs;
    try {
      Page page = ParserOutputs.page(result);
      if (result.getKind() != UrlKind.SITEMAP && isImportedAsFile(page)) {
        // a file's import may take seconds: it is done beside the topology, not in its transaction
        forward(ParserTopology.IMPORTS_SINK, origin, result, now);
        return;
      }
      outputs = outputs(result, page);
    } catch (RuntimeException e) {
      // a bug, or a page nothing foresaw: this URL ends in ERROR (which returns its credit to the
      // frontier's window), the service goes on. Only computing is guarded: a failure to write the
      // records below is Kafka's to handle, and must not become an outcome.
      LOG.warn("{}: unexpected failure while parsing, outcome ERROR", result.getUrl(), e);
      outputs = ParserOutputs.rejected(result, Outcome.ERROR, e.toString());
    }
    emit(origin, outputs, result.getOptions(), now);
  }

  private ParserOutputs outputs(FetchResult result, Page page) {
    if (result.getKind() == UrlKind.SITEMAP) {
      return sitemapOutputs(result, page);
    }
    ParseOptions options = ParseOptions.of(result.getOptions());
    if (result.getRendered()) {
      options = options.rendered(); // never sent back to be rendered
    }
    long startedAt = System.nanoTime();
    ParseResult parsed = parser.apply(page, options);
    parseDuration.record(System.nanoTime() - startedAt, TimeUnit.NANOSECONDS);
    return ParserOutputs.of(result, page, parsed, options);
  }

  /**
   * A sitemap (it was discovered as one: from robots.txt, {@code /sitemap.xml} or a sitemap index)
   * is read for its URLs, which go to the frontier with their sitemap hints, at the sitemap's
   * depth; the sitemap itself is not a document: its outcome is {@code SITEMAP}.
   */
  private ParserOutputs sitemapOutputs(FetchResult result, Page page) {
    SitemapReader.Result read =
        sitemaps.read(page.url(), Optional.ofNullable(result.getContentType()), page.body());
    if (read instanceof SitemapReader.Unreadable unreadable) {
      return ParserOutputs.rejected(result, Outcome.IMPORT_REJECTED, unreadable.detail());
    }
    SitemapReader.Read sitemap = (SitemapReader.Read) read;
    // an index's sitemaps are one level deeper: sitemaps.org allows an index of sitemaps, not of
    // indexes; a chain of indexes (each naming the next) ends at the bound
    boolean readsNested = result.getDepth() < MAX_SITEMAP_NESTING;
    int skipped = 0;
    List<KeyValue<String, DiscoveredUrl>> discovered = new ArrayList<>();
    long sitemaps = 0;
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    for (SitemapReader.Entry entry : sitemap.entries()) {
      String origin;
      try {
        origin = Origin.keyOf(entry.url());
      } catch (RuntimeException e) {
        continue; // not an http(s) URL: nothing the frontier could fetch
      }
      if (entry.isSitemap() && !readsNested) {
        skipped++;
        continue;
      }
      sitemaps += entry.isSitemap() ? 1 : 0;
      DiscoveredUrl url =
          DiscoveredUrl.newBuilder()
              .setUrl(entry.url())
              .setSourceUrl(result.getUrl())
              .setDepth(entry.isSitemap() ? result.getDepth() + 1 : result.getDepth())
              .setKind(entry.isSitemap() ? UrlKind.SITEMAP : UrlKind.LINK)
              .setDiscoveredAt(now)
              .setSitemapLastModified(entry.lastModified().orElse(null))
              .setSitemapChangeFrequency(entry.changeFrequency().orElse(null))
              .setSitemapPriority(
                  entry.priority().isPresent() ? entry.priority().getAsDouble() : null)
              .build();
      discovered.add(KeyValue.pair(origin, url));
    }
    String detail =
        sitemap.kind()
            + ": "
            + (discovered.size() - sitemaps)
            + " URLs, "
            + sitemaps
            + " sitemaps"
            + (sitemap.listed() > sitemap.entries().size()
                ? " (the first " + sitemap.entries().size() + " of " + sitemap.listed() + " listed)"
                : "")
            + (readsNested || sitemaps > 0
                ? ""
                : " (an index nested too deep: its sitemaps not read)");
    return new ParserOutputs(
        Optional.of(ParserOutputs.decision(result, Outcome.SITEMAP, detail)),
        Optional.empty(),
        discovered);
  }

  private void emit(
      String origin, ParserOutputs outputs, Map<String, String> options, Instant now) {
    if (outputs.rejection().isPresent()) {
      Decision decision = outputs.rejection().get();
      forward(ParserTopology.OUTCOMES_SINK, origin, decision.toOutcome(SERVICE, now).build(), now);
      forward(ParserTopology.LOG_SINK, origin, log.entry(decision, now, options), now);
    }
    for (Decision logged : outputs.logged()) {
      forward(ParserTopology.LOG_SINK, origin, log.entry(logged, now, options), now);
    }
    outputs
        .document()
        .ifPresent(document -> forward(ParserTopology.PARSED_SINK, origin, document, now));
    for (KeyValue<String, DiscoveredUrl> discovered : newlyFound(outputs.discovered(), now)) {
      forward(ParserTopology.DISCOVERED_SINK, discovered.key, discovered.value, now);
    }
  }

  /**
   * The URLs worth sending to the frontier: a link on many pages (menus, footers) is sent once; a
   * canonical always. Holds the lock on the remembered links once per page, not while writing.
   */
  private List<KeyValue<String, DiscoveredUrl>> newlyFound(
      List<KeyValue<String, DiscoveredUrl>> discovered, Instant now) {
    List<KeyValue<String, DiscoveredUrl>> found = new ArrayList<>(discovered.size());
    Transaction transaction = StreamTransactions.current();
    synchronized (recentLinks) {
      for (KeyValue<String, DiscoveredUrl> url : discovered) {
        if (url.value.getKind() == UrlKind.CANONICAL
            || recentLinks.isNew(url.value.getUrl(), transaction, now.toEpochMilli())) {
          found.add(url);
        }
      }
    }
    return found;
  }

  private void forward(String sink, String key, SpecificRecord value, Instant now) {
    context().forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return Objects.requireNonNull(context, "not initialized");
  }
}
