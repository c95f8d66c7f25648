package dev.crawler.parser.streams;

import dev.crawler.common.decision.Decision;
import dev.crawler.common.http.HttpDate;
import dev.crawler.common.usage.UsageFindings;
import dev.crawler.common.usage.UsagePreferences;
import dev.crawler.common.usage.UsageRecords;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.parser.domain.Discovery;
import dev.crawler.parser.domain.DroppedLinks;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageMarkdown;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.schemas.Origin;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fetch result leads to, once parsed: a rejection, or the parsed document and the URLs it
 * makes known to the frontier. Shared by the topology's {@link ParserProcessor} (pages) and the
 * import loop (files), so that a file's document is made exactly as a page's.
 *
 * @param rejection the decision for a result that is not a document (its outcome and log entry)
 * @param document the parsed document, for the committer
 * @param discovered the URLs for the frontier, each keyed by its own origin
 * @param logged decisions for the crawl log alone: the links left out at a bound
 */
public record ParserOutputs(
    Optional<Decision> rejection,
    Optional<ParsedDocument> document,
    List<KeyValue<String, DiscoveredUrl>> discovered,
    List<Decision> logged) {

  /** Outputs without log-only decisions. */
  public ParserOutputs(
      Optional<Decision> rejection,
      Optional<ParsedDocument> document,
      List<KeyValue<String, DiscoveredUrl>> discovered) {
    this(rejection, document, discovered, List.of());
  }

  private static final Logger LOG = LoggerFactory.getLogger(ParserOutputs.class);

  /** A result that ends with this outcome. */
  public static ParserOutputs rejected(FetchResult result, Outcome outcome, String detail) {
    return rejected(decision(result, outcome, detail));
  }

  static ParserOutputs rejected(Decision decision) {
    return new ParserOutputs(Optional.of(decision), Optional.empty(), List.of());
  }

  /**
   * What the parse of a fetch result gives: {@code IMPORT_REJECTED} for a rejected one, else the
   * document and its discoveries (its links, its canonical, its next page).
   */
  public static ParserOutputs of(
      FetchResult result, Page page, ParseResult parsed, ParseOptions options) {
    if (parsed instanceof ParseResult.Rejected rejected) {
      return rejected(result, Outcome.IMPORT_REJECTED, rejected.detail());
    }
    if (parsed instanceof ParseResult.Redirected redirected) {
      // a signpost: recorded as a redirect, its target discovered at the page's depth, as a 3xx
      DiscoveredUrl target =
          discoveredUrl(
              new Discovery(
                  redirected.target(), UrlKind.REDIRECT, result.getDepth(), Optional.empty()),
              result);
      return new ParserOutputs(
          Optional.of(decision(result, Outcome.REDIRECT, redirected.detail())),
          Optional.empty(),
          List.of(KeyValue.pair(Origin.keyOf(redirected.target()), target)));
    }
    if (parsed instanceof ParseResult.NeedsRendering needs) {
      return rejected(result, Outcome.RENDER_NEEDED, needs.reason());
    }
    ParseResult.Parsed document =
        ((ParseResult.Parsed) parsed).withRedirectsAsSelf(result.getRedirectChain());
    List<Decision> logged = droppedLinks(result, document.dropped());
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
    return new ParserOutputs(
        Optional.empty(),
        Optional.of(parsedDocument(result, page, document, options)),
        discovered,
        logged);
  }

  /**
   * A crawl-log line for each link the page left out at a bound (its first characters and its
   * length), so an operator asking why it was not crawled finds the answer.
   */
  private static List<Decision> droppedLinks(FetchResult result, DroppedLinks dropped) {
    if (dropped.count() == 0) {
      return List.of();
    }
    LOG.info(
        "{}: {} links left out (longer than parser.max.link.chars, or beyond parser.max.outlinks)",
        result.getUrl(),
        dropped.count());
    List<Decision> logged = new ArrayList<>(dropped.kept().size());
    for (int i = 0; i < dropped.kept().size(); i++) {
      DroppedLinks.Link link = dropped.kept().get(i);
      String detail =
          link.reason()
              + (link.reason().equals("URL_TOO_LONG")
                  ? ": " + link.length() + " characters, over parser.max.link.chars"
                  : ": beyond the links kept per page, parser.max.outlinks")
              + (i == dropped.kept().size() - 1 && dropped.count() > dropped.kept().size()
                  ? "; " + (dropped.count() - dropped.kept().size()) + " more left out, not listed"
                  : "");
      String url = link.length() > link.start().length() ? link.start() + "…" : link.start();
      logged.add(
          Decision.of(url, Outcome.FILTERED, detail)
              .withRequest(result.getRequestId(), result.getDepth() + 1, 1)
              .withSource(result.getUrl()));
    }
    return logged;
  }

  static Decision decision(FetchResult result, Outcome outcome, String detail) {
    return Decision.of(result.getUrl(), outcome, detail)
        .withRequest(result.getRequestId(), result.getDepth(), result.getAttempt())
        .withStatus(result.getStatus())
        .withDuration(result.getDurationMillis());
  }

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
        // a page that is its own canonical after redirects is canonical under the URL it
        // was requested as
        .setCanonicalUrl(
            document.isNonCanonical()
                ? document.canonicalUrl().orElse(null)
                : document.canonicalUrl().map(self -> result.getUrl()).orElse(null))
        .setTitle(document.title().orElse(null))
        .setDescription(document.description().orElse(null))
        .setLanguage(document.language().best().orElse(null))
        .setDeclaredLanguage(document.language().declared().orElse(null))
        .setAuthor(document.file().author().orElse(null))
        .setCreatedAt(document.file().createdAt().orElse(null))
        .setModifiedAt(document.file().modifiedAt().orElse(null))
        .setFilePageCount(document.file().pageCount().orElse(null))
        .setText(ByteBuffer.wrap(document.utf8Text()))
        .setContentType(document.contentType())
        .setCharset(document.charset())
        .setStatus(result.getStatus())
        .setEtag(page.header("ETag").orElse(null))
        .setLastModified(page.header("Last-Modified").orElse(null))
        .setFetchedAt(result.getFetchedAt())
        // the date the page states; else the response's Last-Modified; else the committer
        // uses the first sight
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
        .setMarkdown(document.extras().markdown().map(PageMarkdown::markdown).orElse(null))
        .setMarkdownTruncated(
            document.extras().markdown().map(PageMarkdown::truncated).orElse(false))
        .setStructuredData(
            document.extras().structuredData().map(StructuredRecords::of).orElse(null))
        .setUsage(usage(result, document))
        .setRendered(result.getRendered())
        .build();
  }

  /**
   * What the site states about the document's uses: what the fetcher read for its URL (robots.txt,
   * tdmrep.json) with what the document states itself (meta tags, headers).
   */
  private static dev.crawler.events.UsagePreferences usage(
      FetchResult result, ParseResult.Parsed document) {
    UsageFindings fromOrigin =
        result.getUsage() == null ? UsageFindings.NONE : UsageRecords.findingsOf(result.getUsage());
    return UsageRecords.toRecord(UsagePreferences.combine(fromOrigin, document.extras().usage()));
  }

  /**
   * The page of a fetch result; its body is the record's own array when the buffer is all of it.
   */
  public static Page page(FetchResult result) {
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
    // after redirects followed in the fetch, the page is at the last target: its links
    // resolve against that
    String answeredBy = result.getFinalUrl() != null ? result.getFinalUrl() : result.getUrl();
    return new Page(
        answeredBy,
        result.getHeaders(),
        bytes,
        Optional.ofNullable(result.getContentType()),
        Optional.ofNullable(result.getCharset()));
  }
}
