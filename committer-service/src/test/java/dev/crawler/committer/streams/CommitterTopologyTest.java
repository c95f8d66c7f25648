package dev.crawler.committer.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.crawler.committer.domain.CommitterSettings;
import dev.crawler.committer.domain.ParsedText;
import dev.crawler.committer.state.DocumentState;
import dev.crawler.common.streams.TopologyTestSupport;
import dev.crawler.events.ChunkEvent;
import dev.crawler.events.ChunkEventType;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DeleteReason;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UsagePreference;
import dev.crawler.events.UsagePreferences;
import dev.crawler.events.UsageSource;
import dev.crawler.events.UsageStatement;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import dev.crawler.schemas.serde.StateSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitterTopologyTest {

  private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant DAY_2 = START.plus(Duration.ofDays(1));
  private static final Instant DAY_3 = START.plus(Duration.ofDays(2));
  private static final String ORIGIN = "http://a.example";
  private static final String URL = ORIGIN + "/post";
  private static final String CANONICAL = ORIGIN + "/post-canonical";

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, ParsedDocument> parsed;
  private TestInputTopic<String, CrawlOutcome> outcomesIn;
  private TestOutputTopic<String, DocumentEvent> documents;
  private TestOutputTopic<String, CrawlOutcome> outcomes;
  private TestOutputTopic<String, CrawlLogEntry> log;
  private TestOutputTopic<String, DeadLetter> deadLetters;

  @BeforeEach
  void start() {
    open(START);
  }

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void publishesANewDocumentAsAnUpsertKeyedByUrlAndReportsTheDecision() {
    ParsedDocument page =
        ParsedDocument.newBuilder(page("c1", "req-1"))
            .setDepth(2)
            .setAttempt(3)
            .setEtag("\"e1\"")
            .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
            .setPublishedAt(Instant.parse("2026-11-01T00:00:00Z"))
            .setMetadata(Map.of("og:type", "article"))
            .build();

    parsed.pipeInput(ORIGIN, page, START);

    Document document =
        Document.newBuilder()
            .setUrl(URL)
            .setCanonicalUrl(null)
            .setPermalink(URL)
            .setTitle("Post c1")
            .setText("text c1")
            .setContentType("text/html")
            .setStatus(200)
            .setEtag("\"e1\"")
            .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
            .setFetchedAt(START)
            .setPublishedAt(Instant.parse("2026-11-01T00:00:00Z"))
            .setFirstSeenAt(START)
            .setVersion(1)
            .setContentChecksum("c1")
            .setDepth(2)
            .setMetadata(Map.of("og:type", "article"))
            .build();
    assertThat(documents.readRecordsToList())
        .containsExactly(
            new TestRecord<>(
                URL,
                DocumentEvent.newBuilder()
                    .setType(DocumentEventType.UPSERT)
                    .setUrl(URL)
                    .setTime(START)
                    .setDocument(document)
                    .build(),
                START));
    assertThat(outcomes.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                ORIGIN,
                CrawlOutcome.newBuilder()
                    .setUrl(URL)
                    .setRequestId("req-1")
                    .setOutcome(Outcome.COMMITTED)
                    .setDetail("new document, version 1")
                    .setTime(START)
                    .setDepth(2)
                    .setAttempt(3)
                    .setStatus(200)
                    .setContentChecksum("c1")
                    .setEtag("\"e1\"")
                    .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
                    .setService("committer")
                    .build()));
    assertThat(log.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                ORIGIN,
                CrawlLogEntry.newBuilder()
                    .setUrl(URL)
                    .setOutcome(Outcome.COMMITTED)
                    .setDetail("new document, version 1")
                    .setTime(START)
                    .setService("committer")
                    .setDepth(2)
                    .setStatus(200)
                    .build()));
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void publishesNothingForUnchangedContentAndVersionTwoKeepingFirstSightForChangedContent() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    driver.advanceWallClockTime(Duration.ofDays(1));
    parsed.pipeInput(ORIGIN, page("c1", "req-2"), DAY_2);
    driver.advanceWallClockTime(Duration.ofDays(1));
    ParsedDocument changed =
        ParsedDocument.newBuilder(page("c2", "req-3"))
            .setFetchedAt(DAY_3)
            .setPublishedAt(DAY_3)
            .build();
    parsed.pipeInput(ORIGIN, changed, DAY_3);

    assertThat(documents.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(URL, upsert(page("c1", "req-1"), 1, START, START, START)),
            KeyValue.pair(URL, upsert(changed, 2, START, START, DAY_3)));
    assertThat(outcomes.readValuesToList())
        .extracting(
            CrawlOutcome::getRequestId,
            CrawlOutcome::getOutcome,
            CrawlOutcome::getDetail,
            CrawlOutcome::getTime)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "req-1", Outcome.COMMITTED, "new document, version 1", START),
            org.assertj.core.groups.Tuple.tuple(
                "req-2", Outcome.UNMODIFIED, "content checksum unchanged", DAY_2),
            org.assertj.core.groups.Tuple.tuple(
                "req-3", Outcome.COMMITTED, "content changed, version 2", DAY_3));
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getOutcome)
        .containsExactly(Outcome.COMMITTED, Outcome.UNMODIFIED, Outcome.COMMITTED);
  }

  @Test
  void withdrawsAPublishedDocumentThatTurnsNoindexWithADeleteThenATombstone() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();
    driver.advanceWallClockTime(Duration.ofDays(1));

    parsed.pipeInput(
        ORIGIN, ParsedDocument.newBuilder(page("c1", "req-2")).setNoindex(true).build(), DAY_2);

    assertThat(documents.readRecordsToList())
        .containsExactly(
            new TestRecord<>(
                URL, delete(DeleteReason.NOINDEX, "robots meta noindex", DAY_2), DAY_2),
            new TestRecord<String, DocumentEvent>(URL, null, DAY_2));
    assertThat(outcomes.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(ORIGIN, outcome("req-2", Outcome.NOINDEX, "robots meta noindex", DAY_2)));
    assertThat(log.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(ORIGIN, logEntry(Outcome.NOINDEX, "robots meta noindex", DAY_2)));
  }

  @Test
  void withdrawsAPublishedDocumentThatNamesAnotherCanonicalWithADeleteThenATombstone() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();

    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(page("c1", "req-2")).setCanonicalUrl(CANONICAL).build(),
        START);

    assertThat(documents.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(URL, delete(DeleteReason.NONCANONICAL, CANONICAL, START)),
            KeyValue.pair(URL, null));
    assertThat(outcomes.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(ORIGIN, outcome("req-2", Outcome.NONCANONICAL, CANONICAL, START)));
    assertThat(log.readKeyValuesToList())
        .containsExactly(KeyValue.pair(ORIGIN, logEntry(Outcome.NONCANONICAL, CANONICAL, START)));
  }

  @Test
  void keepsNoindexAndNoncanonicalPagesThatWereNeverPublishedUnpublished() {
    parsed.pipeInput(
        ORIGIN, ParsedDocument.newBuilder(page("c1", "req-1")).setNoindex(true).build(), START);
    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(page("c1", "req-2")).setCanonicalUrl(CANONICAL).build(),
        START);

    assertThat(documents.isEmpty()).isTrue();
    assertThat(outcomes.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(ORIGIN, outcome("req-1", Outcome.NOINDEX, "robots meta noindex", START)),
            KeyValue.pair(ORIGIN, outcome("req-2", Outcome.NONCANONICAL, CANONICAL, START)));
    assertThat(log.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(ORIGIN, logEntry(Outcome.NOINDEX, "robots meta noindex", START)),
            KeyValue.pair(ORIGIN, logEntry(Outcome.NONCANONICAL, CANONICAL, START)));
  }

  @Test
  void deletesAPublishedDocumentWhoseUrlIsGoneWithATombstoneAndALogEntryButNoSecondOutcome() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();
    driver.advanceWallClockTime(Duration.ofDays(1));

    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.GONE, 410), DAY_2);

    assertThat(documents.readRecordsToList())
        .containsExactly(
            new TestRecord<>(
                URL, delete(DeleteReason.GONE, "document deleted: status 410", DAY_2), DAY_2),
            new TestRecord<String, DocumentEvent>(URL, null, DAY_2));
    // the fetcher's outcome ended the request: the committer writes no outcome of its own
    assertThat(outcomes.isEmpty()).isTrue();
    assertThat(log.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                ORIGIN,
                CrawlLogEntry.newBuilder()
                    .setUrl(URL)
                    .setOutcome(Outcome.GONE)
                    .setDetail("document deleted: status 410")
                    .setTime(DAY_2)
                    .setService("committer")
                    .setDepth(1)
                    .setStatus(410)
                    .build()));
  }

  @Test
  void theChunkTopicsLiveSetFollowsThePageThroughAChangeThatShrinksItAndA404() {
    TestOutputTopic<String, ChunkEvent> chunks =
        TopologyTestSupport.output(driver, topics.chunks());
    String section = "Text of the section, long enough to be a chunk of its own. ".repeat(5);
    ParsedDocument first =
        ParsedDocument.newBuilder(page("c1", "req-1"))
            .setMarkdown(
                "# Guide\n\n## Install\n\n"
                    + section
                    + "\n\n## Configure\n\n"
                    + section
                    + "\n\n## Run\n\n"
                    + section)
            .setOptions(Map.of("chunk-max-chars", "400"))
            .build();
    Map<String, ChunkEvent> live = new java.util.HashMap<>();

    parsed.pipeInput(ORIGIN, first, START);
    applyTo(live, chunks.readKeyValuesToList());

    assertThat(live.values())
        .extracting(chunk -> chunk.getHeadingPath().get(chunk.getHeadingPath().size() - 1))
        .containsExactlyInAnyOrder("Install", "Configure", "Run");
    assertThat(live.values())
        .allSatisfy(
            chunk -> {
              assertThat(chunk.getUrl()).isEqualTo(URL);
              assertThat(chunk.getDocumentVersion()).isEqualTo(1);
              assertThat(chunk.getOf()).isEqualTo(3);
              assertThat(chunk.getText()).doesNotContain("#");
            });
    String installId =
        live.values().stream()
            .filter(chunk -> chunk.getHeadingPath().contains("Install"))
            .findFirst()
            .orElseThrow()
            .getId();

    ParsedDocument shrunk =
        ParsedDocument.newBuilder(page("c2", "req-2"))
            .setMarkdown(
                "# Guide\n\n## Install\n\n"
                    + section
                    + "\n\n## Run\n\n"
                    + "Run it: a shorter section, rewritten. ".repeat(3))
            .setOptions(Map.of("chunk-max-chars", "400"))
            .build();
    parsed.pipeInput(ORIGIN, shrunk, START);
    List<KeyValue<String, ChunkEvent>> second = chunks.readKeyValuesToList();
    applyTo(live, second);

    assertThat(live.keySet())
        .as("the chunks of the new version only: Install unchanged keeps its id")
        .contains(installId)
        .hasSize(2);
    assertThat(live.values())
        .allSatisfy(chunk -> assertThat(chunk.getDocumentVersion()).isEqualTo(2));
    assertThat(second)
        .filteredOn(record -> record.value == null)
        .as("a tombstone for each chunk the page no longer has")
        .hasSize(2);
    assertThat(second)
        .filteredOn(
            record -> record.value != null && record.value.getType() == ChunkEventType.DELETE)
        .hasSize(2);

    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), START);
    applyTo(live, chunks.readKeyValuesToList());

    assertThat(live).as("the document is gone: so are its chunks").isEmpty();
    assertThat(store().get(URL).getChunkIds()).isEmpty();
  }

  @Test
  void aCrawlThatAsksNoChunksPublishesNone() {
    TestOutputTopic<String, ChunkEvent> chunks =
        TopologyTestSupport.output(driver, topics.chunks());

    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(page("c1", "req-1")).setMarkdown("# A\n\ntext").build(),
        START);

    assertThat(chunks.isEmpty()).isTrue();
  }

  @Test
  void aDocumentWhoseSiteRefusesARequiredUseIsNotPublishedAndAPublishedOneIsDeleted() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();
    UsagePreferences refuses =
        UsagePreferences.newBuilder()
            .setSummary(Map.of("ai-training", UsagePreference.STATED_DISALLOWED))
            .setStatements(
                List.of(
                    UsageStatement.newBuilder()
                        .setSource(UsageSource.ROBOTS_META)
                        .setRaw("noai")
                        .setEffects(Map.of("ai-training", UsagePreference.STATED_DISALLOWED))
                        .build()))
            .build();

    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(page("c2", "req-2"))
            .setUsage(refuses)
            .setOptions(Map.of("require-usage", "ai-training"))
            .build(),
        START);

    assertThat(documents.readValuesToList())
        .first()
        .satisfies(
            event -> {
              assertThat(event.getType()).isEqualTo(DocumentEventType.DELETE);
              assertThat(event.getDeleteReason()).isEqualTo(DeleteReason.USAGE_REFUSED);
            });
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome, CrawlOutcome::getDetail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Outcome.USAGE_REFUSED, "ai-training refused by ROBOTS_META noai"));

    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(page("c3", "req-3"))
            .setOptions(Map.of("require-usage", "ai-training", "require-usage-stated", "true"))
            .build(),
        START);
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getDetail)
        .containsExactly("ai-training not stated allowed (require-usage-stated)");
  }

  private static void applyTo(
      Map<String, ChunkEvent> live, List<KeyValue<String, ChunkEvent>> records) {
    for (KeyValue<String, ChunkEvent> record : records) {
      if (record.value == null || record.value.getType() == ChunkEventType.DELETE) {
        live.remove(record.key);
      } else {
        live.put(record.key, record.value);
      }
    }
  }

  @Test
  void deletesAPublishedDocumentWhoseUrlIsNotFoundOnceOnly() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();

    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), START);
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), START);

    assertThat(documents.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                URL, delete(DeleteReason.NOT_FOUND, "document deleted: status 404", START)),
            KeyValue.pair(URL, null));
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getOutcome)
        .containsExactly(Outcome.NOT_FOUND);
  }

  @Test
  void ignoresNotFoundForUnpublishedUrlsItsOwnOutcomesAndOtherOutcomes() {
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), START);
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();

    outcomesIn.pipeInput(
        ORIGIN,
        CrawlOutcome.newBuilder(fetcherOutcome(Outcome.GONE, 410)).setService("committer").build(),
        START);
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.BAD_STATUS, 500), START);
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NETWORK_ERROR, 0), START);

    assertThat(documents.isEmpty()).isTrue();
    assertThat(outcomes.isEmpty()).isTrue();
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getOutcome, CrawlLogEntry::getDetail)
        .as(
            "a bad status is logged and kept within the grace; the network error the frontier still retries is not a crawl's answer")
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Outcome.BAD_STATUS, "status 500: kept, failed crawl 1 of a grace of 1"));
    assertThat(store().get(URL).getPublished()).isTrue();
    assertThat(store().get(URL).getFailures()).isEqualTo(1);
  }

  @Test
  void publishesTheFirstOfTwoUrlsWithTheSameContentAndCallsTheOtherADuplicate() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    ParsedDocument copy =
        ParsedDocument.newBuilder(page("c1", "req-2")).setUrl(ORIGIN + "/copy").build();
    parsed.pipeInput(ORIGIN, copy, START);

    assertThat(documents.readKeyValuesToList()).extracting(kv -> kv.key).containsExactly(URL);
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome)
        .containsExactly(Outcome.COMMITTED, Outcome.DUPLICATE);

    // the original changes: the copy is published when
    // it is next crawled, the original keeps its URL
    parsed.pipeInput(ORIGIN, page("c2", "req-3"), START.plusSeconds(60));
    parsed.pipeInput(
        ORIGIN,
        ParsedDocument.newBuilder(copy).setRequestId("req-4").build(),
        START.plusSeconds(60));

    assertThat(documents.readKeyValuesToList())
        .extracting(kv -> kv.key)
        .containsExactly(URL, ORIGIN + "/copy");
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome)
        .containsExactly(Outcome.COMMITTED, Outcome.COMMITTED);
  }

  @Test
  void sendsAnUndecodableRecordToTheDeadLettersAndProcessesTheNextOne() {
    TestInputTopic<byte[], byte[]> raw =
        driver.createInputTopic(
            topics.parsed().name(), new ByteArraySerializer(), new ByteArraySerializer());
    byte[] key = ORIGIN.getBytes(StandardCharsets.UTF_8);
    byte[] garbage = "not an avro record".getBytes(StandardCharsets.UTF_8);

    raw.pipeInput(key, garbage);
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);

    List<DeadLetter> letters = deadLetters.readValuesToList();
    assertThat(letters).hasSize(1);
    DeadLetter letter = letters.get(0);
    assertThat(letter.getTopic()).isEqualTo(topics.parsed().name());
    assertThat(letter.getOffset()).isZero();
    assertThat(letter.getKey()).isEqualTo(ByteBuffer.wrap(key));
    assertThat(letter.getValue()).isEqualTo(ByteBuffer.wrap(garbage));
    assertThat(letter.getService()).isEqualTo("committer");
    assertThat(letter.getError()).contains(topics.parsed().name());
    assertThat(documents.readKeyValuesToList())
        .containsExactly(KeyValue.pair(URL, upsert(page("c1", "req-1"), 1, START, START, START)));
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome)
        .containsExactly(Outcome.COMMITTED);
  }

  @Test
  void sendsAnUndecodableOutcomeToTheDeadLettersAndGoesOn() {
    TestInputTopic<byte[], byte[]> raw =
        driver.createInputTopic(
            topics.outcomes().name(), new ByteArraySerializer(), new ByteArraySerializer());

    raw.pipeInput(ORIGIN.getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0, 0, 99, 1, 2});
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);

    assertThat(deadLetters.readValuesToList())
        .extracting(DeadLetter::getTopic)
        .containsExactly(topics.outcomes().name());
    assertThat(documents.readValuesToList()).hasSize(1);
  }

  @Test
  void recognisesADuplicateOfAUrlAnotherPartitionPublishes() {
    TestInputTopic<String, String> checksumsIn =
        TopologyTestSupport.input(driver, topics.checksums());
    TestOutputTopic<String, String> checksumsOut =
        TopologyTestSupport.output(driver, topics.checksums());
    checksumsIn.pipeInput("c1", "http://b.example/original", START);
    checksumsOut.readKeyValuesToList();

    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    assertThat(outcomes.readValue().getOutcome()).isEqualTo(Outcome.DUPLICATE);
    assertThat(documents.isEmpty()).isTrue();

    parsed.pipeInput(ORIGIN, page("c2", "req-2"), START);
    assertThat(outcomes.readValue().getOutcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(checksumsOut.readKeyValuesToList())
        .as("published: every partition learns who has c2")
        .containsExactly(KeyValue.pair("c2", URL));
  }

  @Test
  void deletesAfterTheNotFoundGraceAndKeepsTheDocumentWhenThePageComesBack() {
    driver.close();
    open(START, new CommitterSettings(1, 1, true));
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    drainOutputs();

    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), DAY_2);
    assertThat(documents.isEmpty()).as("first 404: within the grace").isTrue();
    parsed.pipeInput(ORIGIN, page("c1", "req-2"), DAY_2);
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), DAY_2);
    assertThat(documents.isEmpty())
        .as("the page came back in between: the count starts again")
        .isTrue();
    outcomesIn.pipeInput(ORIGIN, fetcherOutcome(Outcome.NOT_FOUND, 404), DAY_2);

    List<KeyValue<String, DocumentEvent>> events = documents.readKeyValuesToList();
    assertThat(events).hasSize(2);
    assertThat(events.get(0).value.getDeleteReason()).isEqualTo(DeleteReason.NOT_FOUND);
    assertThat(events.get(1).value).as("tombstone").isNull();
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getDetail)
        .contains(
            "status 404: kept, failed crawl 1 of a grace of 1", "document deleted: status 404");
  }

  @Test
  void keepsVersionPermalinkAndFirstSightAcrossARestartThroughTheChangelog() {
    parsed.pipeInput(ORIGIN, page("c1", "req-1"), START);
    String changelog =
        driver.producedTopicNames().stream()
            .filter(name -> name.endsWith(CommitterTopology.DOCUMENTS_STORE + "-changelog"))
            .findFirst()
            .orElseThrow();
    List<KeyValue<String, DocumentState>> logged =
        driver
            .createOutputTopic(
                changelog, new StringDeserializer(), StateSerde.of(DocumentState.class))
            .readKeyValuesToList();
    assertThat(logged).extracting(entry -> entry.key).containsExactly(URL);

    // a restarted (or rescheduled) instance starts with an empty state directory and restores the
    // store from its changelog; the test driver wipes the directory on close and cannot restore, so
    // the test replays the changelog into the new store as Streams would
    driver.close();
    open(DAY_2);
    logged.forEach(entry -> store().put(entry.key, entry.value));
    parsed.pipeInput(ORIGIN, page("c1", "req-2"), DAY_2);
    ParsedDocument changed =
        ParsedDocument.newBuilder(page("c2", "req-3")).setFetchedAt(DAY_2).build();
    parsed.pipeInput(ORIGIN, changed, DAY_2);

    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome)
        .containsExactly(Outcome.UNMODIFIED, Outcome.COMMITTED);
    assertThat(documents.readKeyValuesToList())
        .containsExactly(KeyValue.pair(URL, upsert(changed, 2, START, START, DAY_2)));
  }

  private static final String ARTICLE = ORIGIN + "/article";
  private static final String PAGE_2 = ARTICLE + "?page=2";
  private static final String PAGE_3 = ARTICLE + "?page=3";

  @Test
  void publishesAThreePageArticleAsOneDocumentInPageOrder() {
    parsed.pipeInput(ORIGIN, articlePage(ARTICLE, "one", PAGE_2, "r1"), START);
    parsed.pipeInput(ORIGIN, articlePage(PAGE_2, "two", PAGE_3, "r2"), START);
    assertThat(documents.isEmpty()).as("nothing is published before the last page").isTrue();
    parsed.pipeInput(ORIGIN, articlePage(PAGE_3, "three", null, "r3"), START);

    List<TestRecord<String, DocumentEvent>> published = documents.readRecordsToList();
    assertThat(published).hasSize(1);
    assertThat(published.get(0).key()).isEqualTo(ARTICLE);
    Document document = published.get(0).value().getDocument();
    assertThat(document.getText()).isEqualTo("page one\n\npage two\n\npage three");
    assertThat(document.getPageCount()).isEqualTo(3);
    assertThat(document.getPages()).containsExactly(ARTICLE, PAGE_2, PAGE_3);
    assertThat(document.getTitle()).isEqualTo("Article " + ARTICLE);
    assertThat(document.getPermalink()).isEqualTo(ARTICLE);
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getUrl, CrawlOutcome::getOutcome, CrawlOutcome::getRequestId)
        .containsExactly(
            tuple(ARTICLE, Outcome.PAGE, "r1"),
            tuple(PAGE_2, Outcome.PAGE, "r2"),
            tuple(PAGE_3, Outcome.COMMITTED, "r3"));
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getDetail)
        .last()
        .isEqualTo(ARTICLE + ": new document, version 1 (3 pages)");
  }

  @Test
  void aRecrawlWithOnePageChangedAndTheOthersAnswering304PublishesOneNewVersion() {
    parsed.pipeInput(ORIGIN, articlePage(ARTICLE, "one", PAGE_2, "r1"), START);
    parsed.pipeInput(ORIGIN, articlePage(PAGE_2, "two", PAGE_3, "r2"), START);
    parsed.pipeInput(ORIGIN, articlePage(PAGE_3, "three", null, "r3"), START);
    drainOutputs();
    driver.advanceWallClockTime(Duration.ofDays(1));

    outcomesIn.pipeInput(ORIGIN, pageNotModified(ARTICLE), DAY_2);
    parsed.pipeInput(ORIGIN, articlePage(PAGE_2, "two, corrected", PAGE_3, "r5"), DAY_2);
    assertThat(documents.isEmpty()).as("the pass is not complete before page 3").isTrue();
    outcomesIn.pipeInput(ORIGIN, pageNotModified(PAGE_3), DAY_2);

    List<DocumentEvent> published = documents.readValuesToList();
    assertThat(published).hasSize(1);
    assertThat(published.get(0).getDocument().getText())
        .isEqualTo("page one\n\npage two, corrected\n\npage three");
    assertThat(published.get(0).getDocument().getVersion()).isEqualTo(2);
    assertThat(published.get(0).getDocument().getPublishedAt()).isEqualTo(START);
  }

  @Test
  void aRecrawlOfAnUnchangedArticleIsUnmodified() {
    for (Instant when : List.of(START, DAY_2)) {
      driver.advanceWallClockTime(Duration.ofHours(1));
      parsed.pipeInput(ORIGIN, articlePage(ARTICLE, "one", PAGE_2, "r1"), when);
      parsed.pipeInput(ORIGIN, articlePage(PAGE_2, "two", PAGE_3, "r2"), when);
      parsed.pipeInput(ORIGIN, articlePage(PAGE_3, "three", null, "r3"), when);
    }

    assertThat(documents.readValuesToList()).hasSize(1);
    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome)
        .endsWith(Outcome.PAGE, Outcome.PAGE, Outcome.UNMODIFIED);
  }

  @Test
  void aPagePublishedOnItsOwnIsWithdrawnWhenItTurnsOutToBeAPageOfAnArticle() {
    parsed.pipeInput(ORIGIN, articlePage(PAGE_2, "two", null, "r0"), START);
    assertThat(documents.readValuesToList())
        .extracting(DocumentEvent::getUrl)
        .containsExactly(PAGE_2);

    driver.advanceWallClockTime(Duration.ofDays(1));
    parsed.pipeInput(ORIGIN, articlePage(ARTICLE, "one", PAGE_2, "r1"), DAY_2);

    List<DocumentEvent> events = documents.readValuesToList();
    assertThat(events).hasSize(2); // the delete and its tombstone
    assertThat(events.get(0).getType()).isEqualTo(DocumentEventType.DELETE);
    assertThat(events.get(0).getUrl()).isEqualTo(PAGE_2);
    assertThat(events.get(0).getDeleteDetail()).isEqualTo("a page of " + ARTICLE);
  }

  private static ParsedDocument articlePage(
      String url, String text, @Nullable String next, String requestId) {
    return ParsedDocument.newBuilder()
        .setUrl(url)
        .setRequestId(requestId)
        .setTitle("Article " + url)
        .setText(ParsedText.utf8("page " + text))
        .setContentType("text/html")
        .setContentChecksum("c-" + text)
        .setNextPage(next)
        .setPublishedAt(START)
        .setFetchedAt(START)
        .setOptions(Map.of("pagination", "rel=next"))
        .build();
  }

  private static CrawlOutcome pageNotModified(String url) {
    return CrawlOutcome.newBuilder()
        .setUrl(url)
        .setRequestId("r-304")
        .setOutcome(Outcome.UNMODIFIED)
        .setDetail("304")
        .setStatus(304)
        .setService("fetcher")
        .build();
  }

  private void open(Instant wallClock) {
    open(wallClock, CommitterSettings.DEFAULTS);
  }

  private void open(Instant wallClock, CommitterSettings settings) {
    driver =
        TopologyTestSupport.driver(
            CommitterTopology.build(topics, settings, new SimpleMeterRegistry()),
            topics.deadLetters(),
            "committer",
            stateDir,
            wallClock);
    parsed = TopologyTestSupport.input(driver, topics.parsed());
    outcomesIn = TopologyTestSupport.input(driver, topics.outcomes());
    documents = TopologyTestSupport.output(driver, topics.documents());
    outcomes = TopologyTestSupport.output(driver, topics.outcomes());
    log = TopologyTestSupport.output(driver, topics.log());
    deadLetters = TopologyTestSupport.output(driver, topics.deadLetters());
  }

  private void drainOutputs() {
    documents.readRecordsToList();
    outcomes.readRecordsToList();
    log.readRecordsToList();
  }

  private KeyValueStore<String, DocumentState> store() {
    return driver.getKeyValueStore(CommitterTopology.DOCUMENTS_STORE);
  }

  private static ParsedDocument page(String checksum, String requestId) {
    return ParsedDocument.newBuilder()
        .setUrl(URL)
        .setRequestId(requestId)
        .setDepth(1)
        .setTitle("Post " + checksum)
        .setText(ParsedText.utf8("text " + checksum))
        .setContentType("text/html")
        .setContentChecksum(checksum)
        .setFetchedAt(START)
        .build();
  }

  private static CrawlOutcome fetcherOutcome(Outcome outcome, int status) {
    return CrawlOutcome.newBuilder()
        .setUrl(URL)
        .setRequestId("req-9")
        .setOutcome(outcome)
        .setDetail("status " + status)
        .setDepth(1)
        .setStatus(status)
        .setService("fetcher")
        .build();
  }

  private static DocumentEvent upsert(
      ParsedDocument page, long version, Instant firstSeenAt, Instant publishedAt, Instant time) {
    Document document =
        Document.newBuilder()
            .setUrl(page.getUrl())
            .setCanonicalUrl(page.getCanonicalUrl())
            .setPermalink(URL)
            .setTitle(page.getTitle())
            .setText(ParsedText.of(page))
            .setContentType(page.getContentType())
            .setStatus(page.getStatus())
            .setFetchedAt(page.getFetchedAt())
            .setPublishedAt(publishedAt)
            .setFirstSeenAt(firstSeenAt)
            .setVersion(version)
            .setContentChecksum(page.getContentChecksum())
            .setDepth(page.getDepth())
            .build();
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.UPSERT)
        .setUrl(URL)
        .setTime(time)
        .setDocument(document)
        .build();
  }

  private static DocumentEvent delete(DeleteReason reason, String detail, Instant time) {
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.DELETE)
        .setUrl(URL)
        .setTime(time)
        .setDocument(null)
        .setDeleteReason(reason)
        .setDeleteDetail(detail)
        .build();
  }

  private static CrawlOutcome outcome(
      String requestId, Outcome outcome, @Nullable String detail, Instant time) {
    return CrawlOutcome.newBuilder()
        .setUrl(URL)
        .setRequestId(requestId)
        .setOutcome(outcome)
        .setDetail(detail)
        .setTime(time)
        .setDepth(1)
        .setStatus(200)
        .setContentChecksum("c1")
        .setService("committer")
        .build();
  }

  private static CrawlLogEntry logEntry(Outcome outcome, @Nullable String detail, Instant time) {
    return CrawlLogEntry.newBuilder()
        .setUrl(URL)
        .setOutcome(outcome)
        .setDetail(detail)
        .setTime(time)
        .setService("committer")
        .setDepth(1)
        .setStatus(200)
        .build();
  }
}
