package dev.crawler.committer.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.streams.TopologyTestSupport;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitterTopologyTest {

  private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");
  private static final String ORIGIN = "http://a.example";
  private static final String URL = ORIGIN + "/post";

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, ParsedDocument> parsed;
  private TestInputTopic<String, CrawlOutcome> fetchOutcomes;
  private TestOutputTopic<String, DocumentEvent> documents;
  private TestOutputTopic<String, CrawlOutcome> outcomes;
  private TestOutputTopic<String, CrawlLogEntry> log;

  @BeforeEach
  void start() {
    driver = TopologyTestSupport.driver(CommitterTopology.build(topics), topics.deadLetters(), "committer", stateDir, START);
    parsed = TopologyTestSupport.input(driver, topics.parsed());
    fetchOutcomes = TopologyTestSupport.input(driver, topics.outcomes());
    documents = TopologyTestSupport.output(driver, topics.documents());
    outcomes = TopologyTestSupport.output(driver, topics.outcomes());
    log = TopologyTestSupport.output(driver, topics.log());
  }

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void publishesANewDocumentAndReportsTheDecision() {
    parsed.pipeInput(ORIGIN, parsed("c1", "req-1"), START);

    List<KeyValue<String, DocumentEvent>> published = documents.readKeyValuesToList();
    assertThat(published).hasSize(1);
    assertThat(published.get(0).key).isEqualTo(URL);
    assertThat(published.get(0).value.getType()).isEqualTo(DocumentEventType.UPSERT);
    assertThat(published.get(0).value.getDocument().getVersion()).isEqualTo(1);
    CrawlOutcome outcome = outcomes.readValue();
    assertThat(outcome.getOutcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(outcome.getRequestId()).isEqualTo("req-1");
    assertThat(outcome.getContentChecksum()).isEqualTo("c1");
    assertThat(outcome.getService()).isEqualTo("committer");
    CrawlLogEntry entry = log.readValue();
    assertThat(entry.getOutcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(entry.getUrl()).isEqualTo(URL);
  }

  @Test
  void publishesNothingForAnUnchangedDocumentAndVersionTwoForAChangedOne() {
    parsed.pipeInput(ORIGIN, parsed("c1", "req-1"), START);
    parsed.pipeInput(ORIGIN, parsed("c1", "req-2"), START);
    parsed.pipeInput(ORIGIN, parsed("c2", "req-3"), START);

    List<DocumentEvent> published = documents.readValuesToList();
    assertThat(published).extracting(event -> event.getDocument().getVersion()).containsExactly(1L, 2L);
    assertThat(outcomes.readValuesToList()).extracting(CrawlOutcome::getOutcome).containsExactly(Outcome.COMMITTED, Outcome.UNMODIFIED, Outcome.COMMITTED);
  }

  @Test
  void deletesAPublishedDocumentWhoseUrlIsGoneThenWritesATombstone() {
    parsed.pipeInput(ORIGIN, parsed("c1", "req-1"), START);
    documents.readValuesToList();
    outcomes.readValuesToList();
    log.readValuesToList();

    fetchOutcomes.pipeInput(ORIGIN, CrawlOutcome.newBuilder().setUrl(URL).setRequestId("req-2").setOutcome(Outcome.GONE).setStatus(410).setDetail("410").setService("fetcher").build(), START);

    List<KeyValue<String, DocumentEvent>> published = documents.readKeyValuesToList();
    assertThat(published).hasSize(2);
    assertThat(published.get(0).value.getType()).isEqualTo(DocumentEventType.DELETE);
    assertThat(published.get(0).value.getDeleteReason()).hasToString("GONE");
    assertThat(published.get(1).key).isEqualTo(URL);
    assertThat(published.get(1).value).isNull();
    // the fetcher's outcome ended the request: no second outcome, one log entry for the deletion
    assertThat(outcomes.readValuesToList()).extracting(CrawlOutcome::getService).doesNotContain("committer");
    CrawlLogEntry entry = log.readValue();
    assertThat(entry.getOutcome()).isEqualTo(Outcome.GONE);
    assertThat(entry.getDetail()).startsWith("document deleted");
  }

  @Test
  void ignoresItsOwnOutcomesAndOutcomesOfUnpublishedUrls() {
    fetchOutcomes.pipeInput(ORIGIN, CrawlOutcome.newBuilder().setUrl(URL).setOutcome(Outcome.NOT_FOUND).setService("fetcher").build(), START);
    fetchOutcomes.pipeInput(ORIGIN, CrawlOutcome.newBuilder().setUrl(URL).setOutcome(Outcome.NOT_FOUND).setService("committer").build(), START);

    assertThat(documents.isEmpty()).isTrue();
    assertThat(log.isEmpty()).isTrue();
  }

  @Test
  void keepsNoindexAndNoncanonicalPagesUnpublished() {
    ParsedDocument noindex = parsed("c1", "req-1");
    noindex.setNoindex(true);
    ParsedDocument noncanonical = parsed("c2", "req-2");
    noncanonical.setUrl(ORIGIN + "/dup");
    noncanonical.setCanonicalUrl(URL);
    parsed.pipeInput(ORIGIN, noindex, START);
    parsed.pipeInput(ORIGIN, noncanonical, START);

    assertThat(documents.isEmpty()).isTrue();
    assertThat(log.readValuesToList()).extracting(CrawlLogEntry::getOutcome, CrawlLogEntry::getDetail)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Outcome.NOINDEX, "robots meta noindex"), org.assertj.core.groups.Tuple.tuple(Outcome.NONCANONICAL, URL));
  }

  @Test
  void sendsAnUndecodableRecordToTheDeadLettersAndGoesOn() {
    var raw = driver.createInputTopic(topics.parsed().name(), new ByteArraySerializer(), new ByteArraySerializer());
    raw.pipeInput(ORIGIN.getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 0, 0, 99, 1, 2});
    parsed.pipeInput(ORIGIN, parsed("c1", "req-1"), START);

    TestOutputTopic<String, DeadLetter> deadLetters =
        TopologyTestSupport.output(driver, topics.deadLetters());
    DeadLetter letter = deadLetters.readValue();
    assertThat(letter.getTopic()).isEqualTo(topics.parsed().name());
    assertThat(letter.getService()).isEqualTo("committer");
    assertThat(documents.readValuesToList()).hasSize(1);
  }

  private static ParsedDocument parsed(String checksum, String requestId) {
    return ParsedDocument.newBuilder()
        .setUrl(URL)
        .setRequestId(requestId)
        .setTitle("Post " + checksum)
        .setText("text " + checksum)
        .setContentChecksum(checksum)
        .setFetchedAt(START)
        .build();
  }
}
