package dev.crawler.parser.streams;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.http.HttpDate;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.parser.domain.Discovery;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.RecentLinks;
import dev.crawler.parser.domain.SitemapReader;
import dev.crawler.schemas.Origin;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * rejection ({@link ParserTopology} says where). One instance per task; not thread-safe.
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
  private final RecentLinks recentLinks;
  private final SitemapReader sitemaps = new SitemapReader();
  private @Nullable ProcessorContext<String, SpecificRecord> context;

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
   * @param recentLinksCapacity links remembered as sent ({@link RecentLinks})
   * @param parseDuration times each page's parse ({@link #parseDuration(MeterRegistry)})
   */
  ParserProcessor(
      BiFunction<Page, ParseOptions, ParseResult> parser,
      int recentLinksCapacity,
      CrawlLog log,
      Timer parseDuration) {
    this.parser = parser;
    this.log = log;
    this.parseDuration = parseDuration;
    this.recentLinks = new RecentLinks(recentLinksCapacity, RecentLinks.DEFAULT_MAX_AGE_MILLIS);
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    // (re-)initialized, possibly after an aborted transaction: what it remembers may not have been
    // written
    recentLinks.clear();
  }

  /**
   * Processes one fetch result.
   *
   * @throws IllegalArgumentException for a record without a value, and {@code InvalidUrlException}
   *     for one with neither a key nor a valid URL: poison records, which the dead-letter handler
   *     keeps
   */
  @Override
  public void process(Record<String, FetchResult> record) {
    FetchResult result = record.value();
    if (result == null) {
      throw new IllegalArgumentException("a record on the fetch results without a value");
    }
    String origin = record.key() != null ? record.key() : Origin.keyOf(result.getUrl());
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    Outputs outputs;
    try {
      outputs = outputs(result);
    } catch (RuntimeException e) {
      // a bug, or a page nothing foresaw: this URL ends in ERROR (which returns its credit to the
      // frontier's window), the service goes on. Only computing is guarded: a failure to write the
      // records below is Kafka's to handle, and must not become an outcome.
      LOG.warn("{}: unexpected failure while parsing, outcome ERROR", result.getUrl(), e);
      outputs = Outputs.rejected(decision(result, Outcome.ERROR, e.toString()));
    }
    emit(origin, outputs, now);
  }

  /** What a fetch result leads to: a rejection, or the document and its discoveries. */
  private record Outputs(
      Optional<Decision> rejection,
      Optional<ParsedDocument> document,
      List<KeyValue<String, DiscoveredUrl>> discovered) {

    static Outputs rejected(Decision decision) {
      return new Outputs(Optional.of(decision), Optional.empty(), List.of());
    }
  }

  private Outputs outputs(FetchResult result) {
    if (result.getKind() == UrlKind.SITEMAP) {
      return sitemapOutputs(result);
    }
    Page page = page(result);
    ParseOptions options = ParseOptions.of(result.getOptions());
    long startedAt = System.nanoTime();
    ParseResult parsed = parser.apply(page, options);
    parseDuration.record(System.nanoTime() - startedAt, TimeUnit.NANOSECONDS);
    if (parsed instanceof ParseResult.Rejected rejected) {
      return Outputs.rejected(decision(result, Outcome.IMPORT_REJECTED, rejected.detail()));
    }
    ParseResult.Parsed document =
        ((ParseResult.Parsed) parsed).withRedirectsAsSelf(result.getRedirectChain());
    if (document.droppedLinks() > 0) {
      // links longer than parser.max.link.chars, or beyond parser.max.outlinks: never sent
      LOG.info(
          "{}: {} links dropped (longer than the link limit, or beyond the links kept per page)",
          result.getUrl(),
          document.droppedLinks());
    }
    List<Discovery> discoveries =
        document.discoveries(
            result.getDepth(), options.obeysRobotsMeta(), options.obeysLinkNofollow());
    List<KeyValue<String, DiscoveredUrl>> discovered = new ArrayList<>(discoveries.size() + 1);
    // the next page is part of this document: crawled at its depth, whatever nofollow says of links
    document
        .nextPage()
        .ifPresent(
            next ->
                discovered.add(
                    KeyValue.pair(
                        Origin.keyOf(next),
                        discoveredUrl(
                            new Discovery(next, UrlKind.LINK, result.getDepth(), Optional.empty()),
                            result))));
    for (Discovery discovery : discoveries) {
      discovered.add(
          KeyValue.pair(Origin.keyOf(discovery.url()), discoveredUrl(discovery, result)));
    }
    return new Outputs(
        Optional.empty(), Optional.of(parsedDocument(result, page, document, options)), discovered);
  }

  /**
   * A sitemap (it was discovered as one: from robots.txt, {@code /sitemap.xml} or a sitemap index)
   * is read for its URLs, which go to the frontier with their sitemap hints, at the sitemap's
   * depth; the sitemap itself is not a document: its outcome is {@code SITEMAP}.
   */
  private Outputs sitemapOutputs(FetchResult result) {
    Page page = page(result);
    SitemapReader.Result read =
        sitemaps.read(page.url(), Optional.ofNullable(result.getContentType()), page.body());
    if (read instanceof SitemapReader.Unreadable unreadable) {
      return Outputs.rejected(decision(result, Outcome.IMPORT_REJECTED, unreadable.detail()));
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
    return new Outputs(
        Optional.of(decision(result, Outcome.SITEMAP, detail)), Optional.empty(), discovered);
  }

  private void emit(String origin, Outputs outputs, Instant now) {
    if (outputs.rejection().isPresent()) {
      Decision decision = outputs.rejection().get();
      forward(ParserTopology.OUTCOMES_SINK, origin, decision.toOutcome(SERVICE, now).build(), now);
      forward(ParserTopology.LOG_SINK, origin, log.entry(decision, now), now);
    }
    outputs
        .document()
        .ifPresent(document -> forward(ParserTopology.PARSED_SINK, origin, document, now));
    for (KeyValue<String, DiscoveredUrl> discovered : outputs.discovered()) {
      // a link on many pages (menus, footers) is sent once; a canonical always
      if (discovered.value.getKind() == UrlKind.CANONICAL
          || recentLinks.isNew(discovered.value.getUrl(), now.toEpochMilli())) {
        forward(ParserTopology.DISCOVERED_SINK, discovered.key, discovered.value, now);
      }
    }
  }

  private static Decision decision(FetchResult result, Outcome outcome, String detail) {
    return Decision.of(result.getUrl(), outcome, detail)
        .withRequest(result.getRequestId(), result.getDepth(), result.getAttempt())
        .withStatus(result.getStatus())
        .withDuration(result.getDurationMillis());
  }

  /**
   * Whether robots meta nofollow is obeyed for this URL: unless its options say {@code
   * obey-robots-meta: false}.
   */
  /**
   * The checksum of the headers the metadata-checksum option names, those present, in its order;
   * null when it names none.
   */
  private static @Nullable String metadataChecksum(Page page, ParseOptions options) {
    if (options.metadataChecksumHeaders().isEmpty()) {
      return null;
    }
    StringBuilder metadata = new StringBuilder();
    for (String header : options.metadataChecksumHeaders()) {
      page.header(header)
          .ifPresent(
              value -> metadata.append(header).append(": ").append(value.strip()).append('\n'));
    }
    return PageParser.checksum("", metadata.toString());
  }

  private static DiscoveredUrl discoveredUrl(Discovery discovery, FetchResult source) {
    return DiscoveredUrl.newBuilder()
        .setUrl(discovery.url())
        .setNormalized(true) // a discovery's URL is normalized (Discovery)
        .setSourceUrl(source.getUrl())
        .setDepth(discovery.depth())
        .setKind(discovery.kind())
        .setAnchor(discovery.anchor().orElse(null))
        .setDiscoveredAt(source.getFetchedAt())
        .build();
  }

  private static ParsedDocument parsedDocument(
      FetchResult result, Page page, ParseResult.Parsed document, ParseOptions options) {
    return ParsedDocument.newBuilder()
        .setUrl(result.getUrl())
        .setRequestId(result.getRequestId())
        .setDepth(result.getDepth())
        .setAttempt(result.getAttempt())
        // a page that is its own canonical after redirects is canonical under the URL it was
        // requested as
        .setCanonicalUrl(
            document.isNonCanonical()
                ? document.canonicalUrl().orElse(null)
                : document.canonicalUrl().map(self -> result.getUrl()).orElse(null))
        .setTitle(document.title().orElse(null))
        .setDescription(document.description().orElse(null))
        .setLanguage(document.language().orElse(null))
        .setText(ByteBuffer.wrap(document.utf8Text()))
        .setContentType(document.contentType())
        .setCharset(document.charset())
        .setStatus(result.getStatus())
        .setEtag(page.header("ETag").orElse(null))
        .setLastModified(page.header("Last-Modified").orElse(null))
        .setFetchedAt(result.getFetchedAt())
        // the date the page states; else the response's Last-Modified; else the committer uses the
        // first sight
        .setPublishedAt(
            document
                .publishedAt()
                .or(() -> page.header("Last-Modified").flatMap(HttpDate::parse))
                .orElse(null))
        .setContentChecksum(document.contentChecksum())
        .setMetadataChecksum(metadataChecksum(page, options))
        .setOutlinkCount(document.outlinkCount())
        .setNoindex(document.noindex())
        .setNofollow(document.isNofollowObeyed(options.obeysRobotsMeta()))
        .setOptions(result.getOptions())
        .setNextPage(document.nextPage().orElse(null))
        .build();
  }

  /**
   * The page of a fetch result; its body is the record's own array whenever the buffer is all of
   * one.
   */
  private static Page page(FetchResult result) {
    ByteBuffer body = result.getBody();
    byte[] bytes;
    if (body == null) {
      bytes = new byte[0];
    } else if (body.hasArray()
        && body.arrayOffset() == 0
        && body.position() == 0
        && body.remaining() == body.array().length) {
      bytes = body.array();
    } else {
      bytes = new byte[body.remaining()];
      body.duplicate().get(bytes);
    }
    // after redirects followed in the fetch, the page is at the last target: its links resolve
    // against that
    String answeredBy = result.getFinalUrl() != null ? result.getFinalUrl() : result.getUrl();
    return new Page(
        answeredBy,
        result.getHeaders(),
        bytes,
        Optional.ofNullable(result.getContentType()),
        Optional.ofNullable(result.getCharset()));
  }

  private void forward(String sink, String key, SpecificRecord value, Instant now) {
    context().forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return Objects.requireNonNull(context, "not initialized");
  }
}
