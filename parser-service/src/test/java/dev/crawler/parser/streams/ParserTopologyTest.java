package dev.crawler.parser.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawler.common.streams.TopologyTestSupport;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParserTopologyTest {

  private static final Instant FETCHED = Instant.parse("2026-11-23T10:00:00Z");
  private static final String A = "http://a.example";

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, FetchResult> results;
  private TestOutputTopic<String, ParsedDocument> parsed;
  private TestOutputTopic<String, DiscoveredUrl> discovered;
  private TestOutputTopic<String, CrawlOutcome> outcomes;
  private TestOutputTopic<String, CrawlLogEntry> log;

  @BeforeEach
  void start() {
    driver = TopologyTestSupport.driver(ParserTopology.build(topics, PageParser.withDefaults(), 1000), topics.deadLetters(), "parser", stateDir, FETCHED);
    results = TopologyTestSupport.input(driver, topics.fetchResults());
    parsed = TopologyTestSupport.output(driver, topics.parsed());
    discovered = TopologyTestSupport.output(driver, topics.discovered());
    outcomes = TopologyTestSupport.output(driver, topics.outcomes());
    log = TopologyTestSupport.output(driver, topics.log());
  }

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void sendsTheDocumentToTheCommitterAndItsLinksToTheFrontierOneDeeper() {
    results.pipeInput(A, result(A + "/", "text/html", "<title>Home</title><a href=\"/x\">X</a><a href=\"http://b.example/\">B</a><iframe src=\"/f\"></iframe>", Map.of("ETag", "\"v1\"")));

    ParsedDocument document = parsed.readValue();
    assertThat(document.getUrl()).isEqualTo(A + "/");
    assertThat(document.getTitle()).isEqualTo("Home");
    assertThat(document.getRequestId()).isEqualTo("req-1");
    assertThat(document.getAttempt()).isEqualTo(2);
    assertThat(document.getEtag()).isEqualTo("\"v1\"");
    assertThat(document.getContentChecksum()).hasSize(64);
    assertThat(document.getOutlinkCount()).isEqualTo(3);
    assertThat(discovered.readKeyValuesToList())
        .extracting(kv -> kv.key, kv -> kv.value.getUrl(), kv -> kv.value.getKind(), kv -> kv.value.getDepth(), kv -> kv.value.getSourceUrl())
        .containsExactly(
            tuple(A, A + "/x", UrlKind.LINK, 2, A + "/"),
            tuple("http://b.example", "http://b.example/", UrlKind.LINK, 2, A + "/"),
            tuple(A, A + "/f", UrlKind.FRAME, 2, A + "/"));
    assertThat(outcomes.isEmpty()).isTrue();
    assertThat(log.isEmpty()).isTrue();
  }

  @Test
  void sendsALinkFoundOnManyPagesOnce() {
    results.pipeInput(A, result(A + "/1", "text/html", "<a href=\"/menu\">Menu</a><a href=\"/one\">1</a>", Map.of()));
    results.pipeInput(A, result(A + "/2", "text/html", "<a href=\"/menu\">Menu</a><a href=\"/two\">2</a>", Map.of()));

    assertThat(discovered.readValuesToList()).extracting(DiscoveredUrl::getUrl).containsExactly(A + "/menu", A + "/one", A + "/two");
    assertThat(parsed.readValuesToList()).extracting(ParsedDocument::getOutlinkCount).containsExactly(2, 2);
  }

  @Test
  void sendsOnlyTheCanonicalOfANonCanonicalPageAtTheSameDepth() {
    results.pipeInput(A, result(A + "/dup", "text/html", "<link rel=\"canonical\" href=\"/orig\"><a href=\"/x\">X</a>", Map.of()));

    assertThat(parsed.readValue().getCanonicalUrl()).isEqualTo(A + "/orig");
    assertThat(discovered.readValuesToList()).extracting(DiscoveredUrl::getUrl, DiscoveredUrl::getKind, DiscoveredUrl::getDepth)
        .containsExactly(tuple(A + "/orig", UrlKind.CANONICAL, 1));
  }

  @Test
  void followsNoLinksOfANofollowPage() {
    results.pipeInput(A, result(A + "/nf", "text/html", "<meta name=\"robots\" content=\"nofollow\"><a href=\"/x\">X</a>", Map.of()));

    assertThat(parsed.readValue().getNofollow()).isTrue();
    assertThat(discovered.isEmpty()).isTrue();
  }

  @Test
  void followsTheLinksOfANofollowPageWhenRobotsMetaIsNotObeyed() {
    FetchResult rogue = result(A + "/nf", "text/html", "<meta name=\"robots\" content=\"nofollow\"><a href=\"/x\">X</a>", Map.of());
    rogue.setOptions(Map.of("obey-robots-meta", "false"));
    results.pipeInput(A, rogue);

    assertThat(discovered.readValuesToList()).extracting(DiscoveredUrl::getUrl).containsExactly(A + "/x");
  }

  @Test
  void rejectsAnImageWithAnOutcomeAndALogEntry() {
    results.pipeInput(A, result(A + "/photo.png", "image/png", "PNG", Map.of()));

    CrawlOutcome outcome = outcomes.readValue();
    assertThat(outcome.getOutcome()).isEqualTo(Outcome.IMPORT_REJECTED);
    assertThat(outcome.getRequestId()).isEqualTo("req-1");
    assertThat(outcome.getService()).isEqualTo("parser");
    assertThat(log.readValue().getDetail()).isEqualTo("content type image/png is not imported");
    assertThat(parsed.isEmpty()).isTrue();
  }

  @Test
  void sendsAnUndecodableRecordToTheDeadLettersAndGoesOn() {
    var raw = driver.createInputTopic(topics.fetchResults().name(), new ByteArraySerializer(), new ByteArraySerializer());
    raw.pipeInput(A.getBytes(StandardCharsets.UTF_8), "garbage".getBytes(StandardCharsets.UTF_8));
    results.pipeInput(A, result(A + "/", "text/html", "<title>ok</title>", Map.of()));

    TestOutputTopic<String, DeadLetter> deadLetters =
        TopologyTestSupport.output(driver, topics.deadLetters());
    assertThat(deadLetters.readValue().getTopic()).isEqualTo(topics.fetchResults().name());
    assertThat(parsed.readValue().getTitle()).isEqualTo("ok");
  }

  private static FetchResult result(String url, String type, String body, Map<String, String> headers) {
    return FetchResult.newBuilder()
        .setUrl(url)
        .setRequestId("req-1")
        .setDepth(1)
        .setAttempt(2)
        .setStatus(200)
        .setHeaders(headers)
        .setBody(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)))
        .setContentType(type)
        .setCharset("UTF-8")
        .setFetchedAt(FETCHED)
        .build();
  }
}
