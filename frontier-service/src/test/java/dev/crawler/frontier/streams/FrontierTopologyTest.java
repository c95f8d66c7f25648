package dev.crawler.frontier.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.crawler.common.streams.TopologyTestSupport;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeadLetter;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.OriginStats;
import dev.crawler.events.Outcome;
import dev.crawler.events.SiteBudgetStep;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.ActiveConfig;
import dev.crawler.frontier.domain.FrontierSettings;
import dev.crawler.frontier.domain.ReleaseBudget;
import dev.crawler.frontier.domain.RenderRouting;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrontierTopologyTest {

  private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");
  private static final String A = "http://a.example";
  private static final String B = "http://b.example";
  private static final String C = "http://c.example";

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, DiscoveredUrl> discovered;
  private TestInputTopic<String, CrawlOutcome> outcomes;
  private TestOutputTopic<String, FetchRequest> requests;
  private TestOutputTopic<String, CrawlLogEntry> log;
  private TestOutputTopic<String, DiscoveredUrl> rekeyed;

  /** window 2 per origin, max depth 2, lease 60 s, 3 attempts, no page limit. */
  private void start(long maxPages) {
    start(maxPages, CrawlConfig.DEFAULTS);
  }

  private void start(long maxPages, CrawlConfig config) {
    startWith(
        maxPages,
        config.withGlobal(
            Map.of(
                CrawlOption.MAX_DEPTH,
                2,
                CrawlOption.DELAY_MS,
                1000L,
                CrawlOption.SITEMAP_XML,
                false)));
  }

  /** Starts with exactly this crawl configuration (window 2, lease 60 s, 3 attempts). */
  private void startWith(long maxPages, CrawlConfig crawl) {
    FrontierSettings settings =
        new FrontierSettings(crawl, List.of(), maxPages, 2, Duration.ofSeconds(60), 3);
    driver =
        TopologyTestSupport.driver(
            FrontierTopology.build(topics, settings, new SimpleMeterRegistry()),
            topics.deadLetters(),
            "frontier",
            stateDir,
            START);
    discovered = TopologyTestSupport.input(driver, topics.discovered());
    outcomes = TopologyTestSupport.input(driver, topics.outcomes());
    requests = TopologyTestSupport.output(driver, topics.fetchRequests());
    log = TopologyTestSupport.output(driver, topics.log());
    rekeyed = TopologyTestSupport.output(driver, topics.discovered());
  }

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void releasesSeedsThroughAWindowPerOriginSoOneOriginDoesNotBlockAnother() {
    start(0);
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    link(A + "/2", A + "/", 1);
    link(A + "/3", A + "/", 1);
    seed(B + "/");

    List<FetchRequest> released = requests.readValuesToList();
    assertThat(released)
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/", A + "/1", B + "/");
    assertThat(released)
        .allSatisfy(request -> assertThat(request.getOptions()).containsEntry("delay-ms", "1000"));
    assertThat(released).extracting(FetchRequest::getAttempt).containsOnly(1);
    assertThat(released.get(1).getDepth()).isEqualTo(1);
  }

  @Test
  void anOutcomeReturnsTheCreditAndMarksTheUrlDone() {
    start(0);
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    link(A + "/2", A + "/", 1);
    List<FetchRequest> first = requests.readValuesToList();
    assertThat(first).hasSize(2);

    outcome(first.get(0), Outcome.COMMITTED, "committer");

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/2");
    assertThat(urlState(A + "/").getStatus()).isEqualTo(UrlStatus.DONE);
    assertThat(urlState(A + "/").getOutcome()).isEqualTo("COMMITTED");
    assertThat(urlState(A + "/1").getStatus()).isEqualTo(UrlStatus.IN_FLIGHT);
  }

  @Test
  void aUrlSeenAgainChangesNothing() {
    start(0);
    seed(A + "/");
    FetchRequest request = requests.readValue();
    outcome(request, Outcome.COMMITTED, "committer");
    link(A + "/", A + "/x", 1);
    link("HTTP://A.example:80/#top", A + "/x", 1);
    seed(A + "/");

    assertThat(requests.isEmpty()).isTrue();
    assertThat(log.isEmpty()).isTrue();
    assertThat(urlState(A + "/").getOutcome()).isEqualTo("COMMITTED");
  }

  @Test
  void normalizesUrlsBeforeDeduplicating() {
    start(0);
    seed(A + "/");
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl("HTTP://A.Example:80/a/../b?x=1#frag")
            .setDepth(1)
            .setKind(UrlKind.LINK)
            .build(),
        START);
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl("http://a.example/b?x=1")
            .setDepth(1)
            .setKind(UrlKind.LINK)
            .build(),
        START);

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/", A + "/b?x=1");
  }

  @Test
  void takesAUrlMarkedNormalizedAsItIs() {
    start(0);
    seed(A + "/");
    for (boolean isNormalized : new boolean[] {false, true}) {
      discovered.pipeInput(
          A,
          DiscoveredUrl.newBuilder()
              .setUrl(A + "/c/./d" + (isNormalized ? "?marked" : ""))
              .setNormalized(isNormalized)
              .setDepth(1)
              .setKind(UrlKind.LINK)
              .build(),
          START);
    }

    // the parser marks only what it normalized; the frontier trusts the mark and skips its pass
    assertThat(urlState(A + "/c/d")).isNotNull();
    assertThat(urlState(A + "/c/./d?marked")).isNotNull();
    assertThat(urlState(A + "/c/d?marked")).isNull();
  }

  @Test
  void logsUrlsOfOriginsWithoutASeedAsOutOfScopeOnce() {
    start(0);
    seed(A + "/");
    requests.readValuesToList();
    link(C + "/page", A + "/", 1);
    link(C + "/page", A + "/other", 1);

    List<CrawlLogEntry> entries = log.readValuesToList();
    assertThat(entries).hasSize(1);
    assertThat(entries.get(0).getUrl()).isEqualTo(C + "/page");
    assertThat(entries.get(0).getOutcome()).isEqualTo(Outcome.OUT_OF_SCOPE);
    assertThat(entries.get(0).getService()).isEqualTo("frontier");
    assertThat(entries.get(0).getSourceUrl()).isEqualTo(A + "/");
    assertThat(requests.isEmpty()).isTrue();
  }

  @Test
  void logsUrlsBeyondTheMaximumDepthAsTooDeep() {
    start(0);
    seed(A + "/");
    link(A + "/deep", A + "/x", 3);

    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getUrl, CrawlLogEntry::getOutcome)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(A + "/deep", Outcome.TOO_DEEP));
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
  }

  @Test
  void decidesEachNewUrlByTheCrawlConfigurationsRules() {
    start(
        0,
        CrawlConfigLoader.parse(
            """
        rules:
          - apply-for: {path-prefix: /slow/}
            name: slow
            options: {delay-ms: 5000}
          - may-not-have: {path-prefix: /private/}
            name: private
            log: true
          - may-not-have: {path-prefix: /quiet/}
        """,
            "crawl.yaml"));
    seed(A + "/");
    requests.readValuesToList();
    link(A + "/slow/1", A + "/", 1);
    link(A + "/private/1", A + "/", 1);
    link(A + "/quiet/1", A + "/", 1);
    link(A + "/img/logo.png", A + "/", 1);

    FetchRequest slow = requests.readValue();
    assertThat(slow.getUrl()).isEqualTo(A + "/slow/1");
    assertThat(slow.getOptions())
        .containsEntry("delay-ms", "5000")
        .containsEntry("redirects", "record")
        .as("an option only the frontier acts on does not travel")
        .doesNotContainKey("scope");
    assertThat(requests.isEmpty()).isTrue();
    assertThat(log.readValuesToList())
        .extracting(
            CrawlLogEntry::getUrl,
            CrawlLogEntry::getOutcome,
            CrawlLogEntry::getDetail,
            CrawlLogEntry::getRule)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                A + "/private/1", Outcome.FILTERED, "RULE private", "private"),
            org.assertj.core.groups.Tuple.tuple(
                A + "/img/logo.png",
                Outcome.FILTERED,
                "IGNORED_EXTENSION png",
                "ignore-extensions set by default"));
    assertThat(urlState(A + "/quiet/1"))
        .as("filtered without the log flag: no record kept")
        .isNull();
  }

  @Test
  void sendsThePagesTheRulesRenderToTheRenderTier() {
    start(
        0,
        CrawlConfigLoader.parse(
            """
        rules:
          - apply-for: {path-prefix: /app/}
            options: {render: always}
        """,
            "crawl.yaml"));
    TestOutputTopic<String, FetchRequest> rendered =
        TopologyTestSupport.output(driver, topics.renderRequests());
    seed(A + "/");
    link(A + "/app/1", A + "/", 1);

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
    assertThat(rendered.readValuesToList())
        .singleElement()
        .satisfies(
            request -> {
              assertThat(request.getUrl()).isEqualTo(A + "/app/1");
              assertThat(request.getOptions()).containsEntry("render", "always");
            });
  }

  @Test
  void rendersAPageTheParserFoundBuiltByScriptsAndThenItsWholeOrigin() {
    start(0, CrawlConfigLoader.parse("global: {render: auto}\n", "crawl.yaml"));
    TestOutputTopic<String, FetchRequest> rendered =
        TopologyTestSupport.output(driver, topics.renderRequests());
    seed(A + "/");
    for (int i = 1; i <= 5; i++) {
      link(A + "/" + i, A + "/", 1);
    }
    List<FetchRequest> first = requests.readValuesToList();
    assertThat(first).extracting(FetchRequest::getUrl).containsExactly(A + "/", A + "/1");
    outcome(first.get(0), Outcome.RENDER_NEEDED, "parser");
    outcome(first.get(1), Outcome.RENDER_NEEDED, "parser");
    List<FetchRequest> second = requests.readValuesToList();
    assertThat(second).extracting(FetchRequest::getUrl).containsExactly(A + "/2", A + "/3");
    outcome(second.get(0), Outcome.RENDER_NEEDED, "parser"); // the third: the origin is rendered
    outcome(second.get(1), Outcome.COMMITTED, "committer");
    List<String> sentToRender = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      for (FetchRequest request : rendered.readValuesToList()) {
        sentToRender.add(request.getUrl());
        assertThat(request.getAttempt())
            .as("a page sent to the browser is its first attempt")
            .isEqualTo(1);
        outcome(request, Outcome.COMMITTED, "committer");
      }
    }

    assertThat(requests.readValuesToList())
        .as(
            "no page of the origin fetched over HTTP once %d needed a browser",
            RenderRouting.PAGES_BEFORE_ORIGIN)
        .isEmpty();
    assertThat(sentToRender)
        .containsExactlyInAnyOrder(A + "/4", A + "/5", A + "/", A + "/1", A + "/2");
    assertThat(urlState(A + "/").getOutcome()).isEqualTo("COMMITTED");
  }

  @Test
  void aConfigurationAppliedReachesTheUrlsAlreadyQueued() {
    CrawlConfig first =
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(CrawlOption.DELAY_MS, 1000L, CrawlOption.SITEMAP_XML, false));
    ActiveConfig active = new ActiveConfig(first);
    FrontierSettings settings =
        new FrontierSettings(first, List.of(), 0, 2, Duration.ofSeconds(60), 3);
    driver =
        TopologyTestSupport.driver(
            FrontierTopology.build(
                topics, settings, active, ReleaseBudget.of(0), new SimpleMeterRegistry()),
            topics.deadLetters(),
            "frontier",
            stateDir,
            START);
    discovered = TopologyTestSupport.input(driver, topics.discovered());
    outcomes = TopologyTestSupport.input(driver, topics.outcomes());
    requests = TopologyTestSupport.output(driver, topics.fetchRequests());
    log = TopologyTestSupport.output(driver, topics.log());
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    link(A + "/private/2", A + "/", 1);
    link(A + "/3", A + "/", 1);
    List<FetchRequest> before = requests.readValuesToList();
    assertThat(before).extracting(FetchRequest::getUrl).containsExactly(A + "/", A + "/1");
    assertThat(before.get(0).getOptions()).containsEntry("config-version", first.version());

    CrawlConfig second =
        CrawlConfigLoader.parse(
                """
            global: {delay-ms: 1000, sitemap-xml: false}
            rules:
              - may-not-have: {path-prefix: /private/}
                name: private
                log: true
            """,
                "second.yaml")
            .withGlobal(Map.of());
    active.apply(second, "ops@host at now", "v2");
    outcome(before.get(0), Outcome.COMMITTED, "committer");
    outcome(before.get(1), Outcome.COMMITTED, "committer");

    assertThat(requests.readValuesToList())
        .as("queued before the change: /private/2 is decided again and not fetched")
        .singleElement()
        .satisfies(
            request -> {
              assertThat(request.getUrl()).isEqualTo(A + "/3");
              assertThat(request.getOptions()).containsEntry("config-version", "v2");
            });
    assertThat(log.readValuesToList())
        .filteredOn(entry -> entry.getUrl().equals(A + "/private/2"))
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.getOutcome()).isEqualTo(Outcome.FILTERED);
              assertThat(entry.getRule()).isEqualTo("private (configuration v2)");
            });
    assertThat(urlState(A + "/private/2").getOutcome()).isEqualTo("FILTERED");
  }

  @Test
  void aUrlInErrorIsBlacklistedUntilAnOperatorClearsTheErrors() {
    start(0);
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    link(A + "/broken", A + "/", 1);
    outcome(requests.readValue(), Outcome.BAD_STATUS, "fetcher");
    assertThat(urlState(A + "/broken").getStatus()).isEqualTo(UrlStatus.ERROR);

    link(A + "/broken", A + "/other", 1);
    CrawlLogEntry blacklisted = log.readValue();
    assertThat(blacklisted.getOutcome()).isEqualTo(Outcome.BLACKLISTED);
    assertThat(blacklisted.getDetail()).startsWith("earlier BAD_STATUS");
    assertThat(requests.isEmpty()).isTrue();

    driver.advanceWallClockTime(Duration.ofSeconds(1));
    var control = TopologyTestSupport.input(driver, topics.control());
    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.CLEAR_ERRORS)
            .setIssuedBy("test")
            .build());
    link(A + "/broken", A + "/other", 1);

    FetchRequest again = requests.readValue();
    assertThat(again.getUrl()).isEqualTo(A + "/broken");
    assertThat(again.getAttempt()).isEqualTo(1);
    assertThat(log.isEmpty()).isTrue();
  }

  private void command(ControlCommandType type, String target, long issuedAt, boolean delete) {
    TopologyTestSupport.input(driver, topics.control())
        .pipeInput(
            "",
            ControlCommand.newBuilder()
                .setCommand(type)
                .setTarget(target)
                .setDeleteDocuments(delete)
                .setCommandId("c" + issuedAt)
                .setIssuedAt(Instant.ofEpochMilli(issuedAt))
                .setIssuedBy("alice@ops")
                .build());
  }

  @Test
  void aPausedOriginReleasesNothingUntilResumedAndTheOthersGoOn() {
    start(0);
    command(ControlCommandType.PAUSE, A, 1, false);

    seed(A + "/");
    seed(B + "/");

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(B + "/");
    command(ControlCommandType.RESUME, A, 2, false);
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
    assertThat(log.readValuesToList())
        .filteredOn(entry -> entry.getOutcome() == Outcome.OPERATOR)
        .extracting(entry -> entry.getDetail().substring(0, entry.getDetail().indexOf(" at ")))
        .containsExactly("pause " + A + " by alice@ops", "resume " + A + " by alice@ops");
  }

  @Test
  void aBlockWithItsDocumentsDecidesTheOriginsKnownUrlsFiltered() {
    start(0);
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    link(A + "/next", A + "/", 1);
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    command(ControlCommandType.PAUSE, A, 1, false);
    link(A + "/queued", A + "/", 1);
    assertThat(requests.isEmpty()).isTrue();

    command(ControlCommandType.BLOCK, A, 2, true);
    command(ControlCommandType.RESUME, A, 3, false);

    var filtered =
        TopologyTestSupport.output(driver, topics.outcomes()).readValuesToList().stream()
            .filter(outcome -> outcome.getOutcome() == Outcome.FILTERED)
            .map(CrawlOutcome::getUrl)
            .toList();
    assertThat(filtered).containsExactlyInAnyOrder(A + "/", A + "/next", A + "/queued");
    assertThat(requests.isEmpty()).as("blocked, though resumed").isTrue();
  }

  @Test
  void aUrlDoneWithoutErrorStaysDoneAfterErrorsAreCleared() {
    start(0);
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    var control = TopologyTestSupport.input(driver, topics.control());
    control.pipeInput(
        "", ControlCommand.newBuilder().setCommand(ControlCommandType.CLEAR_ERRORS).build());

    seed(A + "/");

    assertThat(requests.isEmpty()).isTrue();
  }

  @Test
  void ignoresAnOutcomeOfAnotherRequest() {
    start(0);
    seed(A + "/");
    FetchRequest request = requests.readValue();
    outcomes.pipeInput(
        A,
        outcomeOf(request, Outcome.COMMITTED, "committer").setRequestId("someone-else").build(),
        START);

    assertThat(urlState(A + "/").getStatus()).isEqualTo(UrlStatus.IN_FLIGHT);
    outcome(request, Outcome.COMMITTED, "committer");
    outcome(request, Outcome.UNMODIFIED, "committer");
    assertThat(urlState(A + "/").getOutcome()).isEqualTo("COMMITTED");
  }

  @Test
  void retriesTransientFailuresUntilTheMaximumAttempts() {
    start(0);
    seed(A + "/");
    for (int attempt = 1; attempt <= 3; attempt++) {
      FetchRequest request = requests.readValue();
      assertThat(request.getAttempt()).isEqualTo(attempt);
      outcome(request, Outcome.NETWORK_ERROR, "fetcher");
    }
    assertThat(requests.isEmpty()).isTrue();
    assertThat(urlState(A + "/").getOutcome()).isEqualTo("NETWORK_ERROR");
    TestOutputTopic<String, CrawlOutcome> gaveUp =
        TopologyTestSupport.output(driver, topics.outcomes());
    assertThat(gaveUp.readValuesToList())
        .filteredOn(outcome -> outcome.getService().equals("frontier"))
        .extracting(CrawlOutcome::getOutcome, CrawlOutcome::getDetail)
        .as("the committer counts a crawl's failure once the retries are spent")
        .containsExactly(tuple(Outcome.NETWORK_ERROR, "gave up after 3 attempts"));
  }

  @Test
  void aDeferredUrlIsQueuedAgainWithoutUsingAnAttemptAndItsOriginWaitsUntilTheRetryTime() {
    start(0);
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    List<FetchRequest> first = requests.readValuesToList();
    assertThat(first).hasSize(2);
    Instant retryAt = START.plus(Duration.ofMinutes(5));

    for (FetchRequest request : first) {
      outcomes.pipeInput(
          A,
          outcomeOf(request, Outcome.DEFERRED, "fetcher")
              .setRetryAt(retryAt)
              .setDetail("origin paused")
              .build(),
          START);
    }
    seed(B + "/");

    List<FetchRequest> other = requests.readValuesToList();
    assertThat(other)
        .extracting(FetchRequest::getUrl)
        .as("another origin goes on")
        .containsExactly(B + "/");
    outcome(other.get(0), Outcome.COMMITTED, "committer");
    assertThat(urlState(A + "/").getStatus()).isEqualTo(UrlStatus.QUEUED);
    assertThat(urlState(A + "/").getAttempt()).isZero();
    driver.advanceWallClockTime(Duration.ofMinutes(4));
    assertThat(requests.isEmpty()).isTrue();
    driver.advanceWallClockTime(Duration.ofMinutes(1).plusSeconds(30));
    List<FetchRequest> again = requests.readValuesToList();
    assertThat(again).extracting(FetchRequest::getUrl).containsExactly(A + "/", A + "/1");
    assertThat(again).extracting(FetchRequest::getAttempt).containsOnly(1);
  }

  @Test
  void sendsTheLastValidatorsOnTheNextFetchOfAUrl() {
    start(0);
    seed(A + "/");
    FetchRequest first = requests.readValue();
    assertThat(first.getIfNoneMatch()).isNull();

    outcomes.pipeInput(
        A,
        outcomeOf(first, Outcome.NETWORK_ERROR, "fetcher")
            .setEtag("\"v1\"")
            .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
            .build(),
        START);

    FetchRequest retry = requests.readValue();
    assertThat(retry.getIfNoneMatch()).isEqualTo("\"v1\"");
    assertThat(retry.getIfModifiedSince()).isEqualTo("Mon, 23 Nov 2026 09:00:00 GMT");
  }

  @Test
  void readsTheSitemapXmlOfASeedsOriginOnceEvenAsGz() {
    startWith(0, CrawlConfig.DEFAULTS.withGlobal(Map.of(CrawlOption.DELAY_MS, 0L)));
    seed(A + "/");
    seed(A + "/other");
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl(A + "/sitemap-2.xml.gz")
            .setDepth(0)
            .setKind(UrlKind.SITEMAP)
            .build(),
        START);

    List<FetchRequest> released = requests.readValuesToList();
    assertThat(released)
        .extracting(FetchRequest::getUrl, FetchRequest::getKind)
        .containsExactly(tuple(A + "/", UrlKind.SEED), tuple(A + "/sitemap.xml", UrlKind.SITEMAP));
    assertThat(urlState(A + "/other").getStatus()).isEqualTo(UrlStatus.QUEUED);
    assertThat(urlState(A + "/sitemap-2.xml.gz").getStatus())
        .as("a sitemap's .gz is not an ignored extension")
        .isEqualTo(UrlStatus.QUEUED);
    assertThat(log.readValuesToList()).isEmpty();
  }

  @Test
  void aRecrawlFetchesWhatIsLinkedAgainAndDeletesOrphansWhenTold() {
    startWith(
        0,
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(
                CrawlOption.DELAY_MS,
                0L,
                CrawlOption.SITEMAP_XML,
                false,
                CrawlOption.ORPHANS,
                CrawlOption.Orphans.DELETE)));
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    link(A + "/x", A + "/", 1);
    link(A + "/y", A + "/", 1);
    for (FetchRequest request : requests.readValuesToList()) {
      outcome(request, Outcome.COMMITTED, "committer");
    }
    TestOutputTopic<String, CrawlOutcome> outcomesOut =
        TopologyTestSupport.output(driver, topics.outcomes());
    outcomesOut.readValuesToList();
    var control = TopologyTestSupport.input(driver, topics.control());

    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.RECRAWL_ALL)
            .setIssuedBy("test")
            .build());
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .as("the seed at once; linked pages when linked again")
        .containsExactly(A + "/");
    link(A + "/x", A + "/", 1);
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/x");
    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.RECRAWL_ORPHANS)
            .setIssuedBy("test")
            .build());

    assertThat(requests.isEmpty()).isTrue();
    assertThat(outcomesOut.readValuesToList())
        .filteredOn(outcome -> outcome.getService().equals("frontier"))
        .extracting(CrawlOutcome::getUrl, CrawlOutcome::getOutcome, CrawlOutcome::getDetail)
        .containsExactly(tuple(A + "/y", Outcome.ORPHAN, "no page links to it any more"));
  }

  @Test
  void aRecrawlLeavesOrphansAsTheyAreWhenToldToIgnoreThem() {
    startWith(
        0,
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(
                CrawlOption.DELAY_MS,
                0L,
                CrawlOption.SITEMAP_XML,
                false,
                CrawlOption.ORPHANS,
                CrawlOption.Orphans.IGNORE)));
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    link(A + "/y", A + "/", 1);
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    TestOutputTopic<String, CrawlOutcome> outcomesOut =
        TopologyTestSupport.output(driver, topics.outcomes());
    var control = TopologyTestSupport.input(driver, topics.control());

    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.RECRAWL_ALL)
            .setIssuedBy("test")
            .build());
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.RECRAWL_ORPHANS)
            .setIssuedBy("test")
            .build());

    assertThat(requests.isEmpty()).as("an ignored orphan is not fetched").isTrue();
    assertThat(outcomesOut.readValuesToList())
        .filteredOn(outcome -> outcome.getService().equals("frontier"))
        .as("nor deleted")
        .isEmpty();
    assertThat(urlState(A + "/y").getStatus()).isEqualTo(UrlStatus.DONE);
    assertThat(urlState(A + "/y").getOutcome()).isEqualTo("COMMITTED");
  }

  @Test
  void fetchesAUrlAgainWhenItIsDueAndCallsAnEarlierRediscoveryPremature() {
    startWith(
        0,
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(
                CrawlOption.DELAY_MS,
                0L,
                CrawlOption.SITEMAP_XML,
                false,
                CrawlOption.RECRAWL_INTERVAL_PER_URL,
                60,
                CrawlOption.RECRAWL_ADAPTIVE,
                true)));
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");
    assertThat(urlState(A + "/").getDueAt()).isEqualTo(START.plus(Duration.ofMinutes(60)));

    driver.advanceWallClockTime(Duration.ofMinutes(30));
    link(A + "/", A + "/other", 1);
    link(A + "/", A + "/third", 1);
    assertThat(requests.isEmpty()).isTrue();
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getOutcome)
        .as("logged once per due time")
        .containsExactly(Outcome.PREMATURE);
    driver.advanceWallClockTime(Duration.ofMinutes(31));

    FetchRequest again = requests.readValue();
    assertThat(again.getUrl()).isEqualTo(A + "/");
    assertThat(again.getAttempt()).isEqualTo(1);
    outcome(again, Outcome.UNMODIFIED, "committer");
    assertThat(urlState(A + "/").getRefreshMinutes())
        .as("unchanged: the interval doubles")
        .isEqualTo(120);
  }

  @Test
  void aSitemapLastmodNewerThanTheLastFetchMakesAUrlDueAtOnce() {
    startWith(
        0,
        CrawlConfig.DEFAULTS.withGlobal(
            Map.of(
                CrawlOption.DELAY_MS,
                0L,
                CrawlOption.SITEMAP_XML,
                false,
                CrawlOption.RECRAWL_INTERVAL_PER_URL,
                1440)));
    seed(A + "/");
    outcome(requests.readValue(), Outcome.COMMITTED, "committer");

    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl(A + "/")
            .setDepth(0)
            .setKind(UrlKind.LINK)
            .setSitemapLastModified(START.minusSeconds(60))
            .build(),
        START);
    assertThat(requests.isEmpty()).as("older than the last fetch").isTrue();
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl(A + "/")
            .setDepth(0)
            .setKind(UrlKind.LINK)
            .setSitemapLastModified(START.plusSeconds(60))
            .build(),
        START);

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
  }

  @Test
  void releasesAKnownUrlTheRecrawlSchedulerAsksForAtOnce() {
    start(0);
    seed(A + "/");
    FetchRequest first = requests.readValue();
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder().setUrl(A + "/").setDepth(0).setKind(UrlKind.RECRAWL).build(),
        START);
    assertThat(requests.isEmpty()).as("in flight already").isTrue();
    outcome(first, Outcome.COMMITTED, "committer");

    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder().setUrl(A + "/").setDepth(0).setKind(UrlKind.RECRAWL).build(),
        START);

    FetchRequest again = requests.readValue();
    assertThat(again.getUrl()).isEqualTo(A + "/");
    assertThat(again.getKind()).as("the kind it was first found as").isEqualTo(UrlKind.SEED);
  }

  @Test
  void releasesAgainARequestWhoseOutcomeNeverComes() {
    start(0);
    seed(A + "/");
    FetchRequest first = requests.readValue();

    driver.advanceWallClockTime(Duration.ofSeconds(30));
    assertThat(requests.isEmpty()).isTrue();
    driver.advanceWallClockTime(Duration.ofSeconds(45));

    FetchRequest again = requests.readValue();
    assertThat(again.getUrl()).isEqualTo(A + "/");
    assertThat(again.getRequestId()).isNotEqualTo(first.getRequestId());
    assertThat(again.getAttempt()).isEqualTo(2);
    // the first request's late outcome changes nothing; the second one's ends the URL
    outcome(first, Outcome.COMMITTED, "committer");
    assertThat(urlState(A + "/").getStatus()).isEqualTo(UrlStatus.IN_FLIGHT);
    outcome(again, Outcome.COMMITTED, "committer");
    assertThat(urlState(A + "/").getStatus()).isEqualTo(UrlStatus.DONE);
  }

  @Test
  void stopsReleasingAfterTheMaximumPages() {
    start(3);
    seed(A + "/");
    seed(B + "/");
    link(A + "/1", A + "/", 1);
    link(B + "/1", B + "/", 1);
    List<FetchRequest> released = requests.readValuesToList();
    assertThat(released).hasSize(3);
    released.forEach(request -> outcome(request, Outcome.COMMITTED, "committer"));
    assertThat(requests.isEmpty()).isTrue();
  }

  @Test
  void sendsAUrlWrittenUnderAnotherOriginToItsOwnPartition() {
    start(0);
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder().setUrl(B + "/x").setDepth(1).setKind(UrlKind.LINK).build(),
        START);

    var forwarded = rekeyed.readKeyValuesToList();
    assertThat(forwarded).hasSize(1);
    assertThat(forwarded.get(0).key).isEqualTo(B);
    assertThat(forwarded.get(0).value.getUrl()).isEqualTo(B + "/x");
    assertThat(requests.isEmpty()).isTrue();
  }

  @Test
  void logsAMalformedUrlAsFiltered() {
    start(0);
    discovered.pipeInput(
        A,
        DiscoveredUrl.newBuilder()
            .setUrl("http://exa mple.com:99999/")
            .setDepth(1)
            .setKind(UrlKind.LINK)
            .build(),
        START);

    CrawlLogEntry entry = log.readValue();
    assertThat(entry.getOutcome()).isEqualTo(Outcome.FILTERED);
    assertThat(entry.getDetail()).startsWith("MALFORMED_URL");
  }

  @Test
  void sendsAnUndecodableRecordToTheDeadLettersAndGoesOn() {
    start(0);
    var raw =
        driver.createInputTopic(
            topics.discovered().name(), new ByteArraySerializer(), new ByteArraySerializer());
    raw.pipeInput(A.getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8));
    seed(A + "/");

    TestOutputTopic<String, DeadLetter> deadLetters =
        TopologyTestSupport.output(driver, topics.deadLetters());
    DeadLetter letter = deadLetters.readValue();
    assertThat(letter.getTopic()).isEqualTo(topics.discovered().name());
    assertThat(letter.getService()).isEqualTo("frontier");
    assertThat(StandardCharsets.UTF_8.decode(letter.getValue()).toString()).isEqualTo("not avro");
    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(A + "/");
  }

  @Test
  void publishesTheFiguresOfTheOriginsThatChangedOnTheStatsTopicEveryFewSeconds() {
    start(0);
    TestOutputTopic<String, OriginStats> stats = TopologyTestSupport.output(driver, topics.stats());
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    link(A + "/2", A + "/", 1);
    seed(B + "/");
    List<FetchRequest> released = requests.readValuesToList();
    outcome(released.get(0), Outcome.COMMITTED, "committer");
    outcome(released.get(2), Outcome.NOT_FOUND, "fetcher");
    assertThat(stats.isEmpty()).as("nothing before the tick").isTrue();

    driver.advanceWallClockTime(FrontierProcessor.STATS_INTERVAL);

    Map<String, OriginStats> byOrigin = stats.readKeyValuesToMap();
    assertThat(byOrigin).containsOnlyKeys(A, B);
    OriginStats a = byOrigin.get(A);
    assertThat(a.getSite()).isEqualTo("a.example");
    assertThat(a.getInScope()).isTrue();
    assertThat(a.getQueued()).as("/2 waits for the window").isZero();
    assertThat(a.getInFlight()).as("/1 and /2").isEqualTo(2);
    assertThat(a.getReleased()).isEqualTo(3);
    assertThat(a.getDone()).containsExactly(Map.entry("COMMITTED", 1L));
    assertThat(byOrigin.get(B).getDone()).containsExactly(Map.entry("NOT_FOUND", 1L));
    assertThat(byOrigin.get(B).getInFlight()).isZero();

    driver.advanceWallClockTime(FrontierProcessor.STATS_INTERVAL);
    assertThat(stats.isEmpty()).as("nothing changed since").isTrue();

    outcome(released.get(1), Outcome.COMMITTED, "committer");
    driver.advanceWallClockTime(FrontierProcessor.STATS_INTERVAL);
    assertThat(stats.readKeyValuesToMap())
        .containsOnlyKeys(A)
        .extractingByKey(A)
        .extracting(OriginStats::getDone)
        .isEqualTo(Map.of("COMMITTED", 2L));
  }

  @Test
  void anOriginsBudgetAdmitsTheMostPagesAndLogsEachUrlPastItOnceKeepingItKnown() {
    startWith(
        0,
        CrawlConfigLoader.parse(
            "global: {sitemap-xml: false}\nrules:\n  - apply-for: {host: a.example}\n    options: {max-pages-per-origin: 3}\n",
            "crawl.yaml"));
    TestOutputTopic<String, OriginStats> stats = TopologyTestSupport.output(driver, topics.stats());
    seed(A + "/");
    seed(B + "/");
    for (int i = 1; i <= 4; i++) {
      link(A + "/" + i, A + "/", 1);
      link(B + "/" + i, B + "/", 1);
    }
    link(A + "/4", A + "/1", 2);

    assertThat(urlState(A + "/2").getStatus()).isEqualTo(UrlStatus.QUEUED);
    assertThat(urlState(A + "/3").getStatus()).as("past the budget of 3").isEqualTo(UrlStatus.DONE);
    assertThat(urlState(A + "/3").getDetail())
        .startsWith("BUDGET_ORIGIN 3 URLs of http://a.example admitted");
    assertThat(urlState(B + "/4").getStatus())
        .as("another origin is not slowed")
        .isEqualTo(UrlStatus.QUEUED);
    assertThat(log.readValuesToList())
        .as("each URL past the budget logged once")
        .extracting(CrawlLogEntry::getUrl, CrawlLogEntry::getOutcome, CrawlLogEntry::getRule)
        .containsExactly(
            tuple(A + "/3", Outcome.FILTERED, "max-pages-per-origin set by rule:rules[0]"),
            tuple(A + "/4", Outcome.FILTERED, "max-pages-per-origin set by rule:rules[0]"));
    driver.advanceWallClockTime(FrontierProcessor.STATS_INTERVAL);
    Map<String, OriginStats> byOrigin = stats.readKeyValuesToMap();
    assertThat(byOrigin.get(A).getAdmitted()).isEqualTo(3);
    assertThat(byOrigin.get(A).getOriginBudget()).isEqualTo(3);
    assertThat(byOrigin.get(B).getAdmitted()).isEqualTo(5);
    assertThat(byOrigin.get(B).getOriginBudget()).isEqualTo(-1);
  }

  @Test
  void
      aRecrawlLeavesAUrlPastItsBudgetUnfetchedWhileTheBudgetIsSpentAndACalendarPastItsHopsFiltered() {
    startWith(
        0,
        CrawlConfigLoader.parse(
            "global: {sitemap-xml: false, delay-ms: 0}\nrules:\n  - apply-for: {host: a.example}\n    options: {max-pages-per-origin: 2}\n",
            "crawl.yaml"));
    seed(A + "/");
    link(A + "/1", A + "/", 1);
    link(A + "/2", A + "/", 1);
    seed(B + "/");
    link(B + "/cal/2026-01-01", B + "/", 1);
    String source = B + "/cal/2026-01-01";
    for (int day = 2; day <= 7; day++) {
      link(B + "/cal/2026-01-0" + day, source, day);
      source = B + "/cal/2026-01-0" + day;
    }
    for (int round = 0; round < 3; round++) {
      requests
          .readValuesToList()
          .forEach(request -> outcome(request, Outcome.COMMITTED, "committer"));
    }
    assertThat(urlState(A + "/2").getBudgetRejected()).isTrue();
    assertThat(urlState(B + "/cal/2026-01-07").getDetail()).startsWith("TRAP_CALENDAR 6 links");
    var control = TopologyTestSupport.input(driver, topics.control());

    control.pipeInput(
        "",
        ControlCommand.newBuilder()
            .setCommand(ControlCommandType.RECRAWL_ALL)
            .setIssuedBy("test")
            .build());
    List<String> released = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      List<FetchRequest> batch = requests.readValuesToList();
      batch.forEach(request -> released.add(request.getUrl()));
      batch.forEach(request -> outcome(request, Outcome.COMMITTED, "committer"));
    }

    assertThat(released)
        .contains(A + "/", A + "/1", B + "/cal/2026-01-06")
        .doesNotContain(A + "/2", B + "/cal/2026-01-07")
        .doesNotHaveDuplicates();
  }

  @Test
  void aSitesBudgetIsCountedOnceForAllItsOriginsByThePartitionOfTheSite() {
    startWith(
        0,
        CrawlConfigLoader.parse(
            "global: {sitemap-xml: false, scope: any, max-pages-per-site: 3}", "crawl.yaml"));
    String www = "http://www.example.org";
    String blog = "http://blog.example.org";
    seed(www + "/");
    link(blog + "/1", www + "/", 1);
    link(www + "/2", www + "/", 1);
    link(blog + "/3", www + "/", 1);

    // the driver hands what the frontier writes to crawl.discovered back to it, as Kafka would
    List<KeyValue<String, DiscoveredUrl>> steps = rekeyed.readKeyValuesToList();
    assertThat(steps)
        .extracting(kv -> kv.key, kv -> kv.value.getUrl(), kv -> kv.value.getSiteBudget())
        .containsExactly(
            tuple("site example.org", www + "/", SiteBudgetStep.RESERVE),
            tuple(www, www + "/", SiteBudgetStep.GRANTED),
            tuple("site example.org", blog + "/1", SiteBudgetStep.RESERVE),
            tuple(blog, blog + "/1", SiteBudgetStep.GRANTED),
            tuple("site example.org", www + "/2", SiteBudgetStep.RESERVE),
            tuple(www, www + "/2", SiteBudgetStep.GRANTED),
            tuple("site example.org", blog + "/3", SiteBudgetStep.RESERVE),
            tuple(blog, blog + "/3", SiteBudgetStep.DENIED));
    discovered.pipeInput(
        blog, steps.get(7).value, START); // an answer delivered twice changes nothing
    discovered.pipeInput(www, steps.get(5).value, START);

    assertThat(requests.readValuesToList())
        .extracting(FetchRequest::getUrl)
        .containsExactly(www + "/", blog + "/1", www + "/2");
    assertThat(urlState(blog + "/3").getDetail())
        .isEqualTo(
            "BUDGET_SITE example.org has admitted 3 URLs, the most max-pages-per-site allows");
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getUrl, CrawlLogEntry::getRule)
        .containsExactly(tuple(blog + "/3", "max-pages-per-site set by global"));
    KeyValueStore<String, Long> control = driver.getKeyValueStore(FrontierTopology.CONTROL_STORE);
    assertThat(control.get(SiteBudgets.SITE_ADMITTED + "example.org")).isEqualTo(3);
  }

  @Test
  void aCalendarIsFollowedAFewLinksInARowAndNoFurther() {
    startWith(0, CrawlConfigLoader.parse("global: {sitemap-xml: false}", "crawl.yaml"));
    seed(A + "/");
    link(A + "/cal/2026-11-23", A + "/", 1);
    String source = A + "/cal/2026-11-23";
    for (int day = 24; day <= 30; day++) {
      String next = A + "/cal/2026-11-" + day;
      link(next, source, day - 22);
      source = next;
    }
    link(A + "/cal/2026-12-01", A + "/about", 2);

    assertThat(urlState(A + "/cal/2026-11-23").getCalendarHops())
        .as("found on a page of another template")
        .isZero();
    assertThat(urlState(A + "/cal/2026-11-28").getCalendarHops()).isEqualTo(5);
    assertThat(urlState(A + "/cal/2026-11-28").getStatus()).isEqualTo(UrlStatus.QUEUED);
    assertThat(urlState(A + "/cal/2026-11-29"))
        .as("6 hops: filtered, and what it links is never found")
        .isNotNull();
    assertThat(urlState(A + "/cal/2026-11-29").getDetail())
        .isEqualTo("TRAP_CALENDAR 6 links in a row within http://a.example/cal/#-#-# > 5");
    assertThat(urlState(A + "/cal/2026-12-01").getStatus())
        .as("a dated page linked from elsewhere")
        .isEqualTo(UrlStatus.QUEUED);
    assertThat(log.readValuesToList())
        .extracting(CrawlLogEntry::getUrl)
        .contains(A + "/cal/2026-11-29");
  }

  private void seed(String url) {
    discovered.pipeInput(
        Origin.keyOf(url),
        DiscoveredUrl.newBuilder().setUrl(url).setDepth(0).setKind(UrlKind.SEED).build(),
        START);
  }

  private void link(String url, String source, int depth) {
    discovered.pipeInput(
        Origin.keyOf(url),
        DiscoveredUrl.newBuilder()
            .setUrl(url)
            .setSourceUrl(source)
            .setDepth(depth)
            .setKind(UrlKind.LINK)
            .build(),
        START);
  }

  private void outcome(FetchRequest request, Outcome outcome, String service) {
    outcomes.pipeInput(
        Origin.keyOf(request.getUrl()), outcomeOf(request, outcome, service).build(), START);
  }

  private static CrawlOutcome.Builder outcomeOf(
      FetchRequest request, Outcome outcome, String service) {
    return CrawlOutcome.newBuilder()
        .setUrl(request.getUrl())
        .setRequestId(request.getRequestId())
        .setOutcome(outcome)
        .setAttempt(request.getAttempt())
        .setDepth(request.getDepth())
        .setService(service);
  }

  private UrlState urlState(String url) {
    KeyValueStore<String, UrlState> store = driver.getKeyValueStore(FrontierTopology.URLS_STORE);
    return store.get(url);
  }
}
