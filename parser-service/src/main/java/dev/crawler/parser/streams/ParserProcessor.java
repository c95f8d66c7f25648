package dev.crawler.parser.streams;

import dev.crawler.common.decision.Decision;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.parser.domain.Link;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.RecentLinks;
import dev.crawler.schemas.Origin;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.jspecify.annotations.Nullable;

/** Parses each fetch result and writes the document, its links and canonical, or the rejection. */
final class ParserProcessor implements Processor<String, FetchResult, String, SpecificRecord> {

  static final String SERVICE = "parser";

  /** The request option (resolved by the frontier's rules) that turns robots meta nofollow off. */
  static final String OBEY_ROBOTS_META_OPTION = "obey-robots-meta";

  private final PageParser parser;
  private final RecentLinks recentLinks;
  private @Nullable ProcessorContext<String, SpecificRecord> context;

  ParserProcessor(PageParser parser, int recentLinksCapacity) {
    this.parser = parser;
    this.recentLinks = new RecentLinks(recentLinksCapacity);
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    // (re-)initialized, possibly after an aborted transaction: what it remembers may not have been written
    recentLinks.clear();
  }

  @Override
  public void process(Record<String, FetchResult> record) {
    FetchResult result = record.value();
    if (result == null) {
      return;
    }
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    String origin = record.key() != null ? record.key() : Origin.keyOf(result.getUrl());
    ParseResult parsed = parser.parse(page(result));
    if (parsed instanceof ParseResult.Rejected rejected) {
      Decision decision =
          Decision.of(result.getUrl(), Outcome.IMPORT_REJECTED, rejected.detail())
              .withRequest(result.getRequestId(), result.getDepth(), result.getAttempt())
              .withStatus(result.getStatus())
              .withDuration(result.getDurationMillis());
      forward(ParserTopology.OUTCOMES_SINK, origin, decision.toOutcome(SERVICE, now).build(), now);
      forward(ParserTopology.LOG_SINK, origin, decision.toLogEntry(SERVICE, now), now);
      return;
    }
    ParseResult.Parsed document = (ParseResult.Parsed) parsed;
    if (document.isNonCanonical(result.getUrl())) {
      // the canonical page is crawled instead, at the same depth; this page's links are its links
      discover(document.canonicalUrl().get(), UrlKind.CANONICAL, result.getDepth(), Optional.empty(), result, now);
    } else {
      boolean obeyRobotsMeta = !"false".equals(result.getOptions().get(OBEY_ROBOTS_META_OPTION));
      for (Link link : document.linksToFollow(obeyRobotsMeta)) {
        if (recentLinks.isNew(link.url())) {
          discover(link.url(), link.kind(), result.getDepth() + 1, link.anchor(), result, now);
        }
      }
    }
    forward(ParserTopology.PARSED_SINK, origin, parsedDocument(result, document), now);
  }

  private void discover(String url, UrlKind kind, int depth, Optional<String> anchor, FetchResult source, Instant now) {
    DiscoveredUrl discovered =
        DiscoveredUrl.newBuilder()
            .setUrl(url)
            .setSourceUrl(source.getUrl())
            .setDepth(depth)
            .setKind(kind)
            .setAnchor(anchor.orElse(null))
            .setDiscoveredAt(source.getFetchedAt())
            .build();
    forward(ParserTopology.DISCOVERED_SINK, Origin.keyOf(url), discovered, now);
  }

  private static ParsedDocument parsedDocument(FetchResult result, ParseResult.Parsed document) {
    Page page = page(result);
    return ParsedDocument.newBuilder()
        .setUrl(result.getUrl())
        .setRequestId(result.getRequestId())
        .setDepth(result.getDepth())
        .setAttempt(result.getAttempt())
        .setCanonicalUrl(document.canonicalUrl().orElse(null))
        .setTitle(document.title().orElse(null))
        .setDescription(document.description().orElse(null))
        .setLanguage(document.language().orElse(null))
        .setText(document.text())
        .setContentType(page.effectiveContentType())
        .setCharset(result.getCharset())
        .setStatus(result.getStatus())
        .setEtag(page.header("ETag").orElse(null))
        .setLastModified(page.header("Last-Modified").orElse(null))
        .setFetchedAt(result.getFetchedAt())
        .setContentChecksum(document.contentChecksum())
        .setPublishedAt(document.publishedAt().orElse(null))
        .setOutlinkCount(document.outlinkCount())
        .setNoindex(document.noindex())
        .setNofollow(document.nofollow())
        .setOptions(result.getOptions())
        .build();
  }

  private static Page page(FetchResult result) {
    ByteBuffer body = result.getBody();
    byte[] bytes;
    if (body == null) {
      bytes = new byte[0];
    } else if (body.hasArray() && body.arrayOffset() == 0 && body.position() == 0 && body.remaining() == body.array().length) {
      bytes = body.array();
    } else {
      bytes = new byte[body.remaining()];
      body.duplicate().get(bytes);
    }
    return new Page(result.getUrl(), result.getHeaders(), bytes, Optional.ofNullable(result.getContentType()), Optional.ofNullable(result.getCharset()));
  }

  private void forward(String sink, String key, SpecificRecord value, Instant now) {
    context().forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return Objects.requireNonNull(context, "not initialized");
  }
}
