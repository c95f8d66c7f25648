package dev.crawler.frontier.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.streams.TopologyTestSupport;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.RecrawlDocument;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Site;
import dev.crawler.frontier.state.RecrawlDocumentState;
import dev.crawler.frontier.state.RecrawlScheduleState;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import dev.crawler.schemas.serde.StateSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The event-driven recrawl wired into the frontier's topology: the committer's document events in,
 * RECRAWL discoveries out, by the wall clock (seed 000's Table 6.8 in virtual time), and a restart
 * that neither skips nor repeats an event.
 */
class RecrawlSchedulerProcessorTest {

  private static final Instant T0 = Instant.parse("2019-09-02T16:00:00Z");
  private static final int[] POSTS_PER_SITE = {5, 3, 10};

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, DocumentEvent> documents;
  private TestOutputTopic<String, DiscoveredUrl> discovered;

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  /** Table 6.8 through the topology: the requests written at each minute are the seed's rows. */
  @ParameterizedTest(name = "minute {0}: [{1}]")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0  | site1/post-1, site1/post-2
          5  | site2/post-1, site2/post-2
          10 | site3/post-1, site3/post-2
          15 | site1/post-3, site1/post-4
          20 | site2/post-3
          25 | site3/post-3, site3/post-4
          30 | site1/post-5
          35 | site3/post-5, site3/post-6
          40 | site3/post-7, site3/post-8
          45 | site3/post-9, site3/post-10
          """)
  void table68ThroughTheTopology(int minute, String expected) {
    start(table67Config());
    publishTable67();

    Map<Integer, List<String>> byMinute = runEvents(0, 120);

    assertThat(byMinute.get(minute)).containsExactly(urls(expected));
  }

  @Test
  void table68EventsRunAtMinutes0To45AndNothingFromMinute50() {
    start(table67Config());
    publishTable67();

    Map<Integer, List<String>> byMinute = runEvents(0, 120);

    assertThat(byMinute.keySet()).containsExactly(0, 5, 10, 15, 20, 25, 30, 35, 40, 45);
    assertThat(byMinute.values().stream().mapToInt(List::size).sum()).isEqualTo(18);
  }

  @Test
  void requestsAreRecrawlDiscoveriesKeyedByThePagesOrigin() {
    start(table67Config());
    publishTable67();
    driver.advanceWallClockTime(Duration.ofSeconds(1));

    var records = discovered.readRecordsToList();

    assertThat(records).isNotEmpty();
    assertThat(records)
        .allSatisfy(record -> assertThat(record.key()).isEqualTo("http://site1.example"));
    assertThat(records)
        .extracting(record -> record.value().getKind())
        .containsOnly(UrlKind.RECRAWL);
  }

  @Test
  void aDeletedDocumentIsNotRecrawled() {
    start(table67Config());
    publishTable67();
    documents.pipeInput(
        post(1, 1),
        DocumentEvent.newBuilder()
            .setType(DocumentEventType.DELETE)
            .setUrl(post(1, 1))
            .setTime(T0)
            .build(),
        T0);

    assertThat(runEvents(0, 0).get(0)).containsExactly(post(1, 2), post(1, 3));
  }

  @Test
  void readsTheDocumentsOnlyWhenTheConfigurationNamesASite() {
    assertThat(sourceTopics(table67Config())).contains(topics.documents().name());
    assertThat(sourceTopics(CrawlConfig.DEFAULTS))
        .isNotEmpty()
        .doesNotContain(topics.documents().name());
  }

  @Test
  void anUndecodableDocumentOfAConfiguredSiteGoesToTheDeadLettersAndTheOthersAreRecrawled() {
    start(table67Config());
    rawDocuments().pipeInput(bytes(post(1, 9)), bytes("not avro"), T0.minusSeconds(1));
    publishTable67();

    DeadLetter letter = TopologyTestSupport.output(driver, topics.deadLetters()).readValue();

    assertThat(letter.getTopic()).isEqualTo(topics.documents().name());
    assertThat(letter.getService()).isEqualTo("frontier");
    assertThat(StandardCharsets.UTF_8.decode(letter.getValue()).toString()).isEqualTo("not avro");
    assertThat(runEvents(0, 0).get(0)).containsExactly(post(1, 1), post(1, 2));
  }

  @Test
  void documentsOfNoConfiguredSiteAreLeftUndecoded() {
    start(table67Config());
    rawDocuments()
        .pipeInput(bytes("http://elsewhere.example/page"), bytes("not avro"), T0.minusSeconds(1));
    publishTable67();

    assertThat(TopologyTestSupport.output(driver, topics.deadLetters()).isEmpty()).isTrue();
    assertThat(runEvents(0, 0).get(0)).containsExactly(post(1, 1), post(1, 2));
  }

  @Test
  void aMultiPageDocumentTakesOneRunPerPage() {
    start(table67Config());
    String article = "http://site1.example/article";
    List<String> pages = List.of(article, article + "?page=2", article + "?page=3");
    documents.pipeInput(article, upsert(article, pages, T0.minus(Duration.ofDays(1))), T0);

    Map<Integer, List<String>> byMinute = runEvents(0, 10);

    assertThat(byMinute.get(0)).containsExactly(article, article + "?page=2");
    assertThat(byMinute.get(5)).containsExactly(article + "?page=3");
    assertThat(byMinute).doesNotContainKey(10);
  }

  @Test
  void nothingIsRecrawledWhileTheGlobalSwitchIsOff() {
    CrawlConfig config = table67Config();
    start(config.withGlobal(Map.of(CrawlOption.RECRAWL_ACTIVE, false)));
    publishTable67();

    assertThat(runEvents(0, 60)).isEmpty();
  }

  /**
   * A restart between events: the processor is rebuilt from its stores (what the changelog
   * restores), and the events after it are the ones an uninterrupted run makes, none skipped, none
   * repeated.
   */
  @Test
  void aRestartNeitherSkipsNorRepeatsAnEvent() {
    CrawlConfig config = table67Config();
    KeyValueStore<String, RecrawlDocumentState> documentStore =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(FrontierTopology.RECRAWL_DOCUMENTS_STORE),
                Serdes.String(),
                StateSerde.of(RecrawlDocumentState.class))
            .withLoggingDisabled()
            .build();
    KeyValueStore<String, RecrawlScheduleState> scheduleStore =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(FrontierTopology.RECRAWL_SCHEDULE_STORE),
                Serdes.String(),
                StateSerde.of(RecrawlScheduleState.class))
            .withLoggingDisabled()
            .build();
    List<String> requested = new ArrayList<>();

    MockProcessorContext<String, DiscoveredUrl> before = context(documentStore, scheduleStore);
    RecrawlSchedulerProcessor first = new RecrawlSchedulerProcessor(config);
    first.init(before);
    for (int s = 1; s <= 3; s++) {
      for (int p = 1; p <= POSTS_PER_SITE[s - 1]; p++) {
        first.process(new Record<>(post(s, p), feed(s, p), T0.toEpochMilli()));
      }
    }
    for (int minute = 0; minute <= 15; minute += 5) {
      tick(before, minute, requested);
    }
    // stopped at minute 17 and started again at minute 19
    MockProcessorContext<String, DiscoveredUrl> after = context(documentStore, scheduleStore);
    RecrawlSchedulerProcessor second = new RecrawlSchedulerProcessor(config);
    second.init(after);
    tick(after, 19, requested);
    for (int minute = 20; minute <= 60; minute += 5) {
      tick(after, minute, requested);
    }

    start(config);
    publishTable67();
    List<String> uninterrupted = runEvents(0, 60).values().stream().flatMap(List::stream).toList();
    assertThat(requested).containsExactlyElementsOf(uninterrupted);
    assertThat(scheduleStore.get(RecrawlSchedulerProcessor.SCHEDULE_KEY).getEvents()).isEqualTo(13);
  }

  /** Fires the punctuation at a minute after T0 and collects the pages requested. */
  private static void tick(
      MockProcessorContext<String, DiscoveredUrl> context, int minute, List<String> requested) {
    long now = T0.plus(Duration.ofMinutes(minute)).toEpochMilli();
    context.setCurrentSystemTimeMs(now);
    context.scheduledPunctuators().forEach(punctuator -> punctuator.getPunctuator().punctuate(now));
    context.forwarded().forEach(forward -> requested.add(forward.record().value().getUrl()));
    context.resetForwards();
  }

  private static MockProcessorContext<String, DiscoveredUrl> context(
      KeyValueStore<String, RecrawlDocumentState> documents,
      KeyValueStore<String, RecrawlScheduleState> schedule) {
    MockProcessorContext<String, DiscoveredUrl> context = new MockProcessorContext<>();
    documents.init(context.getStateStoreContext(), documents);
    schedule.init(context.getStateStoreContext(), schedule);
    context.addStateStore(documents);
    context.addStateStore(schedule);
    return context;
  }

  /**
   * Advances the wall clock to T0 (the first event) and then in 5-minute steps; the pages requested
   * at each minute.
   */
  private Map<Integer, List<String>> runEvents(int fromMinute, int toMinute) {
    Map<Integer, List<String>> byMinute = new LinkedHashMap<>();
    driver.advanceWallClockTime(Duration.ofSeconds(1));
    for (int minute = fromMinute; minute <= toMinute; minute += 5) {
      if (minute > fromMinute) {
        driver.advanceWallClockTime(Duration.ofMinutes(5));
      }
      List<String> pages =
          discovered.readValuesToList().stream()
              .filter(d -> d.getKind() == UrlKind.RECRAWL)
              .map(DiscoveredUrl::getUrl)
              .toList();
      if (!pages.isEmpty()) {
        byMinute.put(minute, pages);
      }
    }
    return byMinute;
  }

  /**
   * Seed 000's Table 6.7: three sites, 5, 3 and 10 posts, 2 runs per event, each recrawled once, an
   * event every 5 minutes.
   */
  private static CrawlConfig table67Config() {
    List<Site> sites = new ArrayList<>();
    for (int s = 1; s <= 3; s++) {
      sites.add(new Site("Site " + s, List.of("http://site" + s + ".example/"), Map.of()));
    }
    Map<CrawlOption<?>, Object> global =
        Map.of(
            CrawlOption.RECRAWL_ACTIVE,
            true,
            CrawlOption.RECRAWL_INTERVAL,
            Duration.ofMinutes(5),
            CrawlOption.RECRAWL_RUNS_PER_EVENT,
            2,
            CrawlOption.RECRAWL_MAX_COUNT,
            1,
            CrawlOption.SITEMAP_XML,
            false);
    return new CrawlConfig(global, sites, List.of());
  }

  private void start(CrawlConfig config) {
    FrontierSettings settings =
        new FrontierSettings(config, List.of(), 0, 2, Duration.ofSeconds(60), 3);
    // one second before the first event, so the documents are in before it fires
    driver =
        TopologyTestSupport.driver(
            FrontierTopology.build(topics, settings, new SimpleMeterRegistry()),
            topics.deadLetters(),
            "frontier",
            stateDir,
            T0.minusSeconds(1));
    documents = TopologyTestSupport.input(driver, topics.documents());
    discovered = TopologyTestSupport.output(driver, topics.discovered());
  }

  private void publishTable67() {
    for (int s = 1; s <= 3; s++) {
      for (int p = 1; p <= POSTS_PER_SITE[s - 1]; p++) {
        documents.pipeInput(
            post(s, p), upsert(post(s, p), List.of(), publishedAt(p)), T0.minusSeconds(1));
      }
    }
  }

  private static RecrawlDocument feed(int site, int post) {
    return RecrawlDocument.newBuilder()
        .setUrl(post(site, post))
        .setSite("Site " + site)
        .setPages(List.of(post(site, post)))
        .setPublishedAt(publishedAt(post))
        .build();
  }

  /** Oldest first: post 1 was published first, a minute before post 2. */
  private static Instant publishedAt(int post) {
    return T0.minus(Duration.ofDays(30)).plus(Duration.ofMinutes(post));
  }

  private static DocumentEvent upsert(String url, List<String> pages, Instant publishedAt) {
    Document document =
        Document.newBuilder()
            .setUrl(url)
            .setPermalink(url)
            .setText("text")
            .setPublishedAt(publishedAt)
            .setFirstSeenAt(T0)
            .setPages(pages)
            .build();
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.UPSERT)
        .setUrl(url)
        .setTime(T0)
        .setDocument(document)
        .build();
  }

  private Set<String> sourceTopics(CrawlConfig config) {
    FrontierSettings settings =
        new FrontierSettings(config, List.of(), 0, 2, Duration.ofSeconds(60), 3);
    Set<String> topicNames = new HashSet<>();
    for (TopologyDescription.Subtopology subtopology :
        FrontierTopology.build(topics, settings, new SimpleMeterRegistry())
            .describe()
            .subtopologies()) {
      for (TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Source source) {
          topicNames.addAll(source.topicSet());
        }
      }
    }
    return topicNames;
  }

  private TestInputTopic<byte[], byte[]> rawDocuments() {
    return driver.createInputTopic(
        topics.documents().name(), new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String post(int site, int post) {
    return "http://site" + site + ".example/post-" + post;
  }

  private static String[] urls(String rows) {
    return Arrays.stream(rows.split(", "))
        .map(row -> "http://" + row.replace("/", ".example/"))
        .toArray(String[]::new);
  }
}
