package dev.crawler.schemas;

import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DeleteReason;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.RobotsVerdict;
import dev.crawler.events.UrlKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * One fully populated record of every event type, every optional field set, for round-trip tests.
 */
public final class SampleEvents {

  public static final Instant T = Instant.parse("2026-11-23T10:15:30.123Z");

  private SampleEvents() {}

  public static DiscoveredUrl discovered() {
    return DiscoveredUrl.newBuilder()
        .setUrl("https://example.org/a b?x=1#top")
        .setSourceUrl("https://example.org/")
        .setDepth(3)
        .setKind(UrlKind.SITEMAP)
        .setAnchor("Café — “quoted”")
        .setDiscoveredAt(T)
        .setSitemapLastModified(T.minusSeconds(86400))
        .setSitemapChangeFrequency("daily")
        .setSitemapPriority(0.8)
        .build();
  }

  public static FetchRequest fetchRequest() {
    return FetchRequest.newBuilder()
        .setUrl("https://example.org/a")
        .setRequestId("req-42")
        .setDepth(1)
        .setAttempt(2)
        .setReleasedAt(T)
        .setIfNoneMatch("\"etag-1\"")
        .setIfModifiedSince("Mon, 02 Sep 2019 16:00:00 GMT")
        .setOptions(Map.of("delay-ms", "1000", "obey-robots-txt", "true"))
        .build();
  }

  public static FetchResult fetchResult() {
    return FetchResult.newBuilder()
        .setUrl("https://example.org/a")
        .setRequestId("req-42")
        .setDepth(1)
        .setAttempt(1)
        .setStatus(200)
        .setHeaders(Map.of("content-type", "text/html; charset=utf-8", "etag", "\"etag-2\""))
        .setBody(ByteBuffer.wrap("<html><title>Ü</title></html>".getBytes(StandardCharsets.UTF_8)))
        .setContentType("text/html")
        .setCharset("utf-8")
        .setFetchedAt(T)
        .setDurationMillis(87)
        .setRedirectChain(List.of("http://example.org/a"))
        .setRobotsVerdict(RobotsVerdict.ALLOWED)
        .setOptions(Map.of("max-depth", "5"))
        .build();
  }

  public static ParsedDocument parsed() {
    return ParsedDocument.newBuilder()
        .setUrl("https://example.org/a")
        .setRequestId("req-42")
        .setDepth(1)
        .setAttempt(2)
        .setCanonicalUrl("https://example.org/canonical")
        .setTitle("Ü")
        .setDescription("A page")
        .setLanguage("de")
        .setText(ByteBuffer.wrap("Some text".getBytes(StandardCharsets.UTF_8)))
        .setContentType("text/html")
        .setCharset("utf-8")
        .setStatus(200)
        .setEtag("\"etag-2\"")
        .setLastModified("Mon, 02 Sep 2019 16:00:00 GMT")
        .setFetchedAt(T)
        .setPublishedAt(T.minusSeconds(3600))
        .setContentChecksum("ab".repeat(32))
        .setMetadataChecksum("cd".repeat(32))
        .setOutlinkCount(17)
        .setNoindex(true)
        .setNofollow(true)
        .setPageCount(3)
        .setMetadata(Map.of("og:title", "Ü"))
        .setOptions(Map.of("pagination", "rel=next"))
        .build();
  }

  public static CrawlOutcome outcome() {
    return CrawlOutcome.newBuilder()
        .setUrl("https://example.org/a")
        .setRequestId("req-42")
        .setOutcome(Outcome.REDIRECT)
        .setDetail("301 https://example.org/b")
        .setTime(T)
        .setDepth(1)
        .setAttempt(1)
        .setStatus(301)
        .setContentChecksum("ab".repeat(32))
        .setEtag("\"e\"")
        .setLastModified("Mon, 02 Sep 2019 16:00:00 GMT")
        .setService("fetcher")
        .build();
  }

  public static DocumentEvent upsert() {
    Document document =
        Document.newBuilder()
            .setUrl("https://example.org/a")
            .setCanonicalUrl("https://example.org/a")
            .setPermalink("https://example.org/a")
            .setTitle("Title")
            .setDescription("Description")
            .setLanguage("en")
            .setText("Text")
            .setContentType("text/html")
            .setCharset("utf-8")
            .setStatus(200)
            .setEtag("\"e\"")
            .setLastModified("Mon, 02 Sep 2019 16:00:00 GMT")
            .setFetchedAt(T)
            .setPublishedAt(T.minusSeconds(60))
            .setFirstSeenAt(T.minusSeconds(120))
            .setVersion(4)
            .setContentChecksum("ab".repeat(32))
            .setMetadataChecksum("cd".repeat(32))
            .setOutlinkCount(5)
            .setPageCount(2)
            .setDepth(1)
            .setMetadata(Map.of("author", "A. N. Other"))
            .build();
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.UPSERT)
        .setUrl("https://example.org/a")
        .setTime(T)
        .setDocument(document)
        .build();
  }

  public static DocumentEvent delete() {
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.DELETE)
        .setUrl("https://example.org/gone")
        .setTime(T)
        .setDeleteReason(DeleteReason.GONE)
        .setDeleteDetail("410")
        .build();
  }

  public static CrawlLogEntry logEntry() {
    return CrawlLogEntry.newBuilder()
        .setUrl("https://example.org/private/x")
        .setOutcome(Outcome.FILTERED)
        .setDetail("LOCAL_POLICY")
        .setRule("rules[2].may-not-have")
        .setTime(T)
        .setService("frontier")
        .setDepth(2)
        .setStatus(null)
        .setSourceUrl("https://example.org/")
        .setDurationMillis(12L)
        .build();
  }

  public static DeadLetter deadLetter() {
    return DeadLetter.newBuilder()
        .setTopic("crawl.parsed")
        .setPartition(3)
        .setOffset(1234)
        .setKey(ByteBuffer.wrap("https://example.org".getBytes(StandardCharsets.UTF_8)))
        .setValue(ByteBuffer.wrap(new byte[] {1, 2, 3}))
        .setHeaders(Map.of("trace", "abc"))
        .setError(
            "undecodable record on topic crawl.parsed partition 3 offset 1234: magic byte is 0x01")
        .setErrorClass("dev.crawler.schemas.serde.UndecodableRecordException")
        .setService("committer")
        .setTime(T)
        .build();
  }

  public static ControlCommand control() {
    return ControlCommand.newBuilder()
        .setCommand(ControlCommandType.CLEAR_ERRORS)
        .setIssuedAt(T)
        .setIssuedBy("operator@host")
        .build();
  }

  /** Every sample, one per event type (two for DocumentEvent: upsert and delete). */
  public static List<SpecificRecord> all() {
    return List.of(
        discovered(),
        fetchRequest(),
        fetchResult(),
        parsed(),
        outcome(),
        upsert(),
        delete(),
        logEntry(),
        deadLetter(),
        control());
  }
}
