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
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.ParserSettings;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParserTopologyTest {

  private static final Instant FETCHED = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant NOW = FETCHED.plusSeconds(5);
  private static final String A = "http://a.example";
  private static final String B = "http://b.example";

  @TempDir Path stateDir;

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private TopologyTestDriver driver;
  private TestInputTopic<String, FetchResult> results;
  private TestOutputTopic<String, ParsedDocument> parsed;
  private TestOutputTopic<String, DiscoveredUrl> discovered;
  private TestOutputTopic<String, CrawlOutcome> outcomes;
  private TestOutputTopic<String, CrawlLogEntry> log;
  private TestOutputTopic<String, DeadLetter> deadLetters;

  private void start(ParserSettings settings) {
    start(ParserTopology.build(topics, settings, new SimpleMeterRegistry()));
  }

  private void start(Topology topology) {
    driver = TopologyTestSupport.driver(topology, topics.deadLetters(), "parser", stateDir, NOW);
    results = TopologyTestSupport.input(driver, topics.fetchResults());
    parsed = TopologyTestSupport.output(driver, topics.parsed());
    discovered = TopologyTestSupport.output(driver, topics.discovered());
    outcomes = TopologyTestSupport.output(driver, topics.outcomes());
    log = TopologyTestSupport.output(driver, topics.log());
    deadLetters = TopologyTestSupport.output(driver, topics.deadLetters());
  }

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void sendsTheDocumentToTheCommitterAndItsLinksToTheFrontierOneDeeper() {
    start(ParserSettings.DEFAULTS);
    String html =
        "<html lang=\"en\"><head><title>Home</title><meta name=\"description\" content=\"The home page\"></head><body>"
            + "<p>Welcome  home</p><a href=\"/x\">X</a> <a href=\"http://b.example\">B</a><img src=\"/logo.png\"><iframe src=\"/f\"></iframe><a href=\"/x#top\">again</a>"
            + "</body></html>";
    FetchResult result =
        result(
            A + "/",
            "text/html",
            html,
            Map.of("etag", "\"v1\"", "last-modified", "Mon, 23 Nov 2026 09:00:00 GMT"));
    result.setOptions(Map.of("max-depth", "5"));

    results.pipeInput(A, result);

    assertThat(parsed.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                A,
                ParsedDocument.newBuilder()
                    .setUrl(A + "/")
                    .setRequestId("req-1")
                    .setDepth(1)
                    .setAttempt(2)
                    .setCanonicalUrl(null)
                    .setTitle("Home")
                    .setDescription("The home page")
                    .setLanguage("en")
                    .setDeclaredLanguage("en")
                    .setText(
                        ByteBuffer.wrap("Welcome home X B again".getBytes(StandardCharsets.UTF_8)))
                    .setContentType("text/html")
                    .setCharset("UTF-8")
                    .setStatus(200)
                    .setEtag("\"v1\"")
                    .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
                    .setFetchedAt(FETCHED)
                    .setPublishedAt(
                        Instant.parse(
                            "2026-11-23T09:00:00Z")) // the page states none: Last-Modified
                    .setContentChecksum(PageParser.checksum("Home", "Welcome home X B again"))
                    .setMetadataChecksum(null)
                    .setOutlinkCount(4)
                    .setNoindex(false)
                    .setNofollow(false)
                    .setOptions(Map.of("max-depth", "5"))
                    .setMarkdown(
                        "Welcome home\n\n[X](http://a.example/x) [B](http://b.example)"
                            + "[again](http://a.example/x#top)")
                    .setStructuredData(dev.crawler.events.StructuredData.newBuilder().build())
                    .setUsage(dev.crawler.events.UsagePreferences.newBuilder().build())
                    .build()));
    assertThat(discovered.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(A, link(A + "/x", UrlKind.LINK, "X", A + "/", 2)),
            KeyValue.pair(B, link(B + "/", UrlKind.LINK, "B", A + "/", 2)),
            KeyValue.pair(A, link(A + "/f", UrlKind.FRAME, null, A + "/", 2)));
    assertThat(outcomes.isEmpty()).as("the committer decides a parsed page's outcome").isTrue();
    assertThat(log.isEmpty()).isTrue();
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void aPageThatOnlyRefreshesToAnotherIsARedirectAndItsTargetIsCrawled() {
    start(ParserSettings.DEFAULTS);
    results.pipeInput(
        A,
        result(
            A + "/index.html",
            "text/html",
            "<html><head><meta http-equiv=\"refresh\" content=\"0;url=api/index.html\"></head>"
                + "<body><noscript>go <a href=\"api/index.html\">here</a></noscript></body></html>",
            Map.of()));

    assertThat(parsed.isEmpty()).as("a signpost is not a document").isTrue();
    assertThat(outcomes.readValuesToList())
        .singleElement()
        .satisfies(
            outcome -> {
              assertThat(outcome.getOutcome()).isEqualTo(Outcome.REDIRECT);
              assertThat(outcome.getDetail())
                  .isEqualTo("meta refresh after 0 s to " + A + "/api/index.html");
            });
    assertThat(discovered.readValuesToList())
        .singleElement()
        .satisfies(
            target -> {
              assertThat(target.getUrl()).isEqualTo(A + "/api/index.html");
              assertThat(target.getKind()).isEqualTo(UrlKind.REDIRECT);
              assertThat(target.getDepth()).as("a redirect's depth").isEqualTo(1);
            });
  }

  @Test
  void aRefreshHeaderRedirectsToo() {
    start(ParserSettings.DEFAULTS);
    results.pipeInput(
        A, result(A + "/old", "text/html", "<p>moved</p>", Map.of("refresh", "2; url=/new")));

    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome, CrawlOutcome::getDetail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Outcome.REDIRECT, "refresh header after 2 s to " + A + "/new"));
  }

  @Test
  void everyLinkLeftOutAtABoundHasACrawlLogLine() {
    start(ParserSettings.DEFAULTS);
    String huge = A + "/" + "x".repeat(10_000);
    results.pipeInput(
        A,
        result(
            A + "/",
            "text/html",
            "<p>text</p><a href=\"" + huge + "\">huge</a><a href=\"/fine\">fine</a>",
            Map.of()));

    assertThat(log.readValuesToList())
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.getOutcome()).isEqualTo(Outcome.FILTERED);
              assertThat(line.getUrl()).hasSize(201).startsWith(A + "/xxx").endsWith("…");
              assertThat(line.getDetail())
                  .isEqualTo(
                      "URL_TOO_LONG: " + huge.length() + " characters, over parser.max.link.chars");
              assertThat(line.getSourceUrl()).isEqualTo(A + "/");
            });
    assertThat(discovered.readValuesToList())
        .extracting(DiscoveredUrl::getUrl)
        .containsExactly(A + "/fine");
  }

  @Test
  void aPageBuiltByScriptsIsSentToBeRenderedButARenderedOneNeverIs() {
    start(ParserSettings.DEFAULTS);
    String app =
        "<html><body><div id=\"app\"></div><script src=\"/app.js\"></script></body></html>";
    FetchResult fetched = result(A + "/app", "text/html", app, Map.of());
    fetched.setOptions(Map.of("render", "auto"));
    results.pipeInput(A, fetched);

    assertThat(outcomes.readValuesToList())
        .extracting(CrawlOutcome::getOutcome, CrawlOutcome::getDetail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Outcome.RENDER_NEEDED, "an empty application root (div#app)"));
    assertThat(parsed.isEmpty()).isTrue();

    FetchResult rendered = result(A + "/app", "text/html", app, Map.of());
    rendered.setOptions(Map.of("render", "auto"));
    rendered.setRendered(true);
    results.pipeInput(A, rendered);

    assertThat(outcomes.isEmpty()).as("no loop: a rendered page is parsed as it is").isTrue();
    assertThat(parsed.readValuesToList())
        .singleElement()
        .satisfies(document -> assertThat(document.getRendered()).isTrue());
  }

  @Test
  void sendsALinkFoundOnManyPagesOnce() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/1", "text/html", "<a href=\"/menu\">Menu</a><a href=\"/one\">1</a>", Map.of()));
    results.pipeInput(
        A,
        result(
            A + "/2", "text/html", "<a href=\"/menu\">Menu</a><a href=\"/two\">2</a>", Map.of()));

    List<DiscoveredUrl> links = discovered.readValuesToList();
    assertThat(links)
        .extracting(DiscoveredUrl::getUrl, DiscoveredUrl::getSourceUrl)
        .containsExactly(
            tuple(A + "/menu", A + "/1"), tuple(A + "/one", A + "/1"), tuple(A + "/two", A + "/2"));
    // normalized here, so the frontier does not normalize them again
    assertThat(links).allSatisfy(link -> assertThat(link.getNormalized()).isTrue());
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getOutlinkCount)
        .containsExactly(2, 2);
  }

  @Test
  void sendsEveryLinkOfEveryPageWhenRemembersNone() {
    start(new ParserSettings(ParserSettings.DEFAULTS.importedContentTypes(), 1000, 0));

    results.pipeInput(A, result(A + "/1", "text/html", "<a href=\"/menu\">Menu</a>", Map.of()));
    results.pipeInput(A, result(A + "/2", "text/html", "<a href=\"/menu\">Menu</a>", Map.of()));

    assertThat(discovered.readValuesToList())
        .extracting(DiscoveredUrl::getSourceUrl)
        .containsExactly(A + "/1", A + "/2");
  }

  @Test
  void sendsOnlyTheCanonicalOfANonCanonicalPageAtTheSameDepth() {
    start(ParserSettings.DEFAULTS);

    FetchResult dup =
        result(
            A + "/dup",
            "text/html",
            "<link rel=\"canonical\" href=\"http://b.example/orig\"><a href=\"/x\">X</a>",
            Map.of());
    dup.setOptions(new HashMap<>(Map.of("canonical-scope", "any")));
    results.pipeInput(A, dup);

    assertThat(parsed.readValue().getCanonicalUrl()).isEqualTo(B + "/orig");
    assertThat(discovered.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(B, link(B + "/orig", UrlKind.CANONICAL, null, A + "/dup", 1)));
  }

  @Test
  void ignoresACanonicalOutsideTheRegisteredDomainByDefault() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/dup",
            "text/html",
            "<link rel=\"canonical\" href=\"http://b.example/orig\"><a href=\"/x\">X</a>",
            Map.of()));

    assertThat(parsed.readValue().getCanonicalUrl()).isNull();
    assertThat(discovered.readKeyValuesToList())
        .extracting(kv -> kv.value.getKind())
        .containsExactly(UrlKind.LINK);
  }

  @Test
  void sendsTheCanonicalOfTheLinkHeader() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/doc.txt",
            "text/plain",
            "words",
            Map.of("link", "</doc.html>; rel=\"canonical\"")));

    assertThat(parsed.readValue().getText())
        .isEqualTo(ByteBuffer.wrap("words".getBytes(StandardCharsets.UTF_8)));
    assertThat(discovered.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(A, link(A + "/doc.html", UrlKind.CANONICAL, null, A + "/doc.txt", 1)));
  }

  @Test
  void followsTheLinksOfAPageThatIsItsOwnCanonical() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/self",
            "text/html",
            "<link rel=\"canonical\" href=\"/self#top\"><a href=\"/x\">X</a>",
            Map.of()));

    assertThat(parsed.readValue().getCanonicalUrl()).isEqualTo(A + "/self");
    assertThat(discovered.readKeyValuesToList())
        .containsExactly(KeyValue.pair(A, link(A + "/x", UrlKind.LINK, "X", A + "/self", 2)));
  }

  @Test
  void resolvesTheLinksOfARedirectedPageAgainstTheUrlThatAnswered() {
    start(ParserSettings.DEFAULTS);
    results.pipeInput(
        A,
        redirected(
            A + "/old/page",
            A + "/new/page",
            "<link rel=\"canonical\" href=\"/new/page\"><a href=\"next\">N</a>"));

    ParsedDocument document = parsed.readValue();
    assertThat(document.getUrl()).isEqualTo(A + "/old/page");
    assertThat(document.getCanonicalUrl())
        .as("its own canonical, under the URL it was requested as")
        .isEqualTo(A + "/old/page");
    assertThat(discovered.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(A, link(A + "/new/next", UrlKind.LINK, "N", A + "/old/page", 2)));
  }

  @Test
  void ignoresACanonicalThatPointsBackIntoTheRedirectChain() {
    start(ParserSettings.DEFAULTS);
    results.pipeInput(
        A,
        redirected(A + "/a", A + "/b", "<link rel=\"canonical\" href=\"/a\"><a href=\"/x\">X</a>"));

    assertThat(parsed.readValue().getCanonicalUrl()).isEqualTo(A + "/a");
    assertThat(discovered.readKeyValuesToList())
        .extracting(kv -> kv.value.getKind())
        .containsExactly(UrlKind.LINK);
  }

  @Test
  void readsASitemapForItsUrlsAndTheirHintsAndPublishesNothing() {
    start(ParserSettings.DEFAULTS);
    String xml =
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
            + A
            + "/one</loc><lastmod>2026-11-20</lastmod><changefreq>weekly</changefreq>"
            + "<priority>0.3</priority></url><url><loc>"
            + B
            + "/elsewhere</loc></url></urlset>";
    FetchResult sitemap = result(A + "/sitemap.xml", "application/xml", xml, Map.of());
    sitemap.setKind(UrlKind.SITEMAP);
    sitemap.setDepth(0);

    results.pipeInput(A, sitemap);

    assertThat(parsed.isEmpty()).isTrue();
    CrawlOutcome outcome = outcomes.readValue();
    assertThat(outcome.getOutcome()).isEqualTo(Outcome.SITEMAP);
    assertThat(outcome.getDetail()).isEqualTo("xml sitemap: 2 URLs, 0 sitemaps");
    List<KeyValue<String, DiscoveredUrl>> urls = discovered.readKeyValuesToList();
    assertThat(urls).extracting(kv -> kv.key).containsExactly(A, B);
    DiscoveredUrl one = urls.get(0).value;
    assertThat(one.getKind()).isEqualTo(UrlKind.LINK);
    assertThat(one.getDepth()).isZero();
    assertThat(one.getSourceUrl()).isEqualTo(A + "/sitemap.xml");
    assertThat(one.getSitemapLastModified()).isEqualTo(Instant.parse("2026-11-20T00:00:00Z"));
    assertThat(one.getSitemapChangeFrequency()).isEqualTo("weekly");
    assertThat(one.getSitemapPriority()).isEqualTo(0.3);
    assertThat(one.getNormalized()).isFalse(); // as the sitemap writes it
  }

  @Test
  void checksumsTheMetadataTheOptionNames() {
    start(ParserSettings.DEFAULTS);
    FetchResult withOption =
        result(
            A + "/m",
            "text/html",
            "<title>m</title>",
            Map.of("ETag", "\"v1\"", "Last-Modified", "Mon, 23 Nov 2026 09:00:00 GMT"));
    withOption.setOptions(new HashMap<>(Map.of("metadata-checksum", "etag,last-modified")));

    results.pipeInput(A, withOption);
    results.pipeInput(
        A, result(A + "/n", "text/html", "<title>n</title>", Map.of("ETag", "\"v1\"")));

    List<ParsedDocument> documents = parsed.readValuesToList();
    assertThat(documents.get(0).getMetadataChecksum())
        .isEqualTo(
            PageParser.checksum(
                "", "etag: \"v1\"\nlast-modified: Mon, 23 Nov 2026 09:00:00 GMT\n"));
    assertThat(documents.get(1).getMetadataChecksum())
        .as("no option: no metadata checksum")
        .isNull();
  }

  @Test
  void takesThePublishDateFromLastModifiedWhenThePageStatesNone() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/dated",
            "text/html",
            "<title>d</title>",
            Map.of("Last-Modified", "Mon, 23 Nov 2026 09:00:00 GMT")));
    results.pipeInput(
        A,
        result(
            A + "/stated",
            "text/html",
            "<meta property=\"article:published_time\" content=\"2026-11-01T08:00:00Z\"><title>s</title>",
            Map.of("Last-Modified", "Mon, 23 Nov 2026 09:00:00 GMT")));
    results.pipeInput(
        A,
        result(
            A + "/undated", "text/html", "<title>u</title>", Map.of("Last-Modified", "yesterday")));

    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getPublishedAt)
        .containsExactly(
            Instant.parse("2026-11-23T09:00:00Z"), Instant.parse("2026-11-01T08:00:00Z"), null);
  }

  @Test
  void leavesOutLinksMarkedNofollowUnlessTheOptionSaysOtherwise() {
    start(ParserSettings.DEFAULTS);
    String html =
        "<a href=\"/ad\" rel=\"sponsored nofollow\">ad</a> <a href=\"/both\" rel=\"nofollow\">b</a> <a href=\"/both\">b again</a> <a href=\"/plain\">p</a>";
    FetchResult rogue = result(A + "/rogue", "text/html", html, Map.of());
    rogue.setOptions(new HashMap<>(Map.of("obey-link-nofollow", "false")));

    results.pipeInput(A, result(A + "/page", "text/html", html, Map.of()));
    List<String> obeyed =
        discovered.readValuesToList().stream().map(DiscoveredUrl::getUrl).toList();
    results.pipeInput(A, rogue);
    List<String> ignored =
        discovered.readValuesToList().stream().map(DiscoveredUrl::getUrl).toList();

    assertThat(obeyed).containsExactly(A + "/both", A + "/plain");
    assertThat(ignored)
        .as("links already sent by this task are not sent twice")
        .containsExactly(A + "/ad");
  }

  @Test
  void rejectsASitemapThatIsNone() {
    start(ParserSettings.DEFAULTS);
    FetchResult sitemap =
        result(A + "/sitemap.xml", "text/html", "<html>not found</html>", Map.of());
    sitemap.setKind(UrlKind.SITEMAP);

    results.pipeInput(A, sitemap);

    assertThat(outcomes.readValue().getOutcome()).isEqualTo(Outcome.IMPORT_REJECTED);
    assertThat(discovered.isEmpty()).isTrue();
  }

  @Test
  void followsNoLinksOfANofollowPage() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(
            A + "/nf",
            "text/html",
            "<meta name=\"robots\" content=\"noindex, nofollow\"><a href=\"/x\">X</a>",
            Map.of()));

    ParsedDocument document = parsed.readValue();
    assertThat(document.getNofollow()).isTrue();
    assertThat(document.getNoindex()).isTrue();
    assertThat(document.getOutlinkCount()).isEqualTo(1);
    assertThat(discovered.isEmpty()).isTrue();
  }

  @Test
  void followsNoLinksWhenTheHeaderSaysNofollow() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(
        A,
        result(A + "/nf", "text/html", "<a href=\"/x\">X</a>", Map.of("x-robots-tag", "nofollow")));

    assertThat(parsed.readValue().getNofollow()).isTrue();
    assertThat(discovered.isEmpty()).isTrue();
  }

  @Test
  void followsTheLinksOfANofollowPageWhenRobotsMetaIsNotObeyed() {
    start(ParserSettings.DEFAULTS);
    FetchResult rogue =
        result(
            A + "/nf",
            "text/html",
            "<meta name=\"robots\" content=\"nofollow\"><a href=\"/x\">X</a>",
            Map.of());
    rogue.setOptions(Map.of("obey-robots-meta", "false"));

    results.pipeInput(A, rogue);

    assertThat(discovered.readValuesToList())
        .extracting(DiscoveredUrl::getUrl)
        .containsExactly(A + "/x");
    assertThat(parsed.readValue().getNofollow()).as("nofollow, not obeyed").isFalse();
  }

  @Test
  void rejectsAnImageWithAnOutcomeAndALogEntry() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(A, result(A + "/photo.png", "image/png", "PNG", Map.of()));

    assertThat(outcomes.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                A,
                CrawlOutcome.newBuilder()
                    .setUrl(A + "/photo.png")
                    .setRequestId("req-1")
                    .setOutcome(Outcome.IMPORT_REJECTED)
                    .setDetail("content type image/png is not imported")
                    .setTime(NOW)
                    .setDepth(1)
                    .setAttempt(2)
                    .setStatus(200)
                    .setService("parser")
                    .build()));
    assertThat(log.readKeyValuesToList())
        .containsExactly(
            KeyValue.pair(
                A,
                CrawlLogEntry.newBuilder()
                    .setUrl(A + "/photo.png")
                    .setOutcome(Outcome.IMPORT_REJECTED)
                    .setDetail("content type image/png is not imported")
                    .setTime(NOW)
                    .setService("parser")
                    .setDepth(1)
                    .setStatus(200)
                    .setDurationMillis(120L)
                    .build()));
    assertThat(parsed.isEmpty()).isTrue();
    assertThat(discovered.isEmpty()).isTrue();
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void setsFilesAsideForTheImportLoopAndGoesOnWithThePagesBehindThem() {
    start(ParserSettings.DEFAULTS);
    TestOutputTopic<String, FetchResult> imports =
        TopologyTestSupport.output(driver, topics.imports());
    FetchResult pdf = result(A + "/report.pdf", "application/pdf", "%PDF-1.7 ...", Map.of());
    FetchResult served =
        result(A + "/download?id=3", "application/octet-stream", "%PDF-1.4 x", Map.of());

    results.pipeInput(A, pdf);
    results.pipeInput(A, served);
    results.pipeInput(A, result(A + "/", "text/html", "<title>Home</title><p>Welcome", Map.of()));

    // the files as they came, for the import loop; nothing decided about them here
    assertThat(imports.readKeyValuesToList())
        .containsExactly(KeyValue.pair(A, pdf), KeyValue.pair(A, served));
    assertThat(outcomes.isEmpty()).isTrue();
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getUrl)
        .containsExactly(A + "/");
  }

  @Test
  void rejectsAFileOfATypeNotImported() {
    start(new ParserSettings(Set.of("text/html"), ParserSettings.DEFAULT_MAX_TEXT_CHARS, 0));
    TestOutputTopic<String, FetchResult> imports =
        TopologyTestSupport.output(driver, topics.imports());

    results.pipeInput(A, result(A + "/report.pdf", "application/pdf", "%PDF-1.7", Map.of()));

    assertThat(imports.isEmpty()).isTrue();
    assertThat(outcomes.readValue().getDetail())
        .isEqualTo("content type application/pdf is not imported");
  }

  @Test
  void rejectsAnEmptyBody() {
    start(ParserSettings.DEFAULTS);
    FetchResult empty = result(A + "/empty", "text/html", "", Map.of());
    empty.setBody(null);

    results.pipeInput(A, empty);

    assertThat(outcomes.readValue().getDetail()).isEqualTo("empty body");
    assertThat(log.readValue().getOutcome()).isEqualTo(Outcome.IMPORT_REJECTED);
    assertThat(parsed.isEmpty()).isTrue();
  }

  @Test
  void anUnexpectedFailureEndsThePageInErrorAndTheNextPageIsParsed() {
    PageParser real = PageParser.withDefaults();
    BiFunction<Page, ParseOptions, ParseResult> failingOnBoom =
        (page, options) -> {
          if (page.url().endsWith("/boom")) {
            throw new IllegalStateException("boom");
          }
          return real.parse(page, options);
        };
    start(
        ParserTopology.build(
            topics, ParserSettings.DEFAULTS, new SimpleMeterRegistry(), failingOnBoom));

    results.pipeInput(A, result(A + "/boom", "text/html", "<p>x</p>", Map.of()));
    results.pipeInput(A, result(A + "/ok", "text/html", "<title>ok</title>", Map.of()));

    CrawlOutcome outcome = outcomes.readValue();
    assertThat(outcome.getOutcome()).isEqualTo(Outcome.ERROR);
    assertThat(outcome.getUrl()).isEqualTo(A + "/boom");
    assertThat(outcome.getRequestId()).isEqualTo("req-1");
    assertThat(outcome.getDetail()).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(log.readValue().getOutcome()).isEqualTo(Outcome.ERROR);
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getUrl)
        .containsExactly(A + "/ok");
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void keysTheOutputByTheOriginWhenTheInputHasNoKey() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(null, result("HTTP://A.example:80/k", "image/gif", "GIF89a", Map.of()));

    assertThat(outcomes.readKeyValue().key).isEqualTo(A);
  }

  @Test
  void sendsAnUndecodableRecordToTheDeadLettersAndGoesOn() {
    start(ParserSettings.DEFAULTS);
    var raw =
        driver.createInputTopic(
            topics.fetchResults().name(), new ByteArraySerializer(), new ByteArraySerializer());

    raw.pipeInput(A.getBytes(StandardCharsets.UTF_8), "garbage".getBytes(StandardCharsets.UTF_8));
    results.pipeInput(A, result(A + "/", "text/html", "<title>ok</title>", Map.of()));

    KeyValue<String, DeadLetter> letter = deadLetters.readKeyValue();
    assertThat(letter.key).isEqualTo(A);
    assertThat(letter.value.getTopic()).isEqualTo(topics.fetchResults().name());
    assertThat(letter.value.getPartition()).isZero();
    assertThat(letter.value.getOffset()).isZero();
    assertThat(letter.value.getKey())
        .isEqualTo(ByteBuffer.wrap(A.getBytes(StandardCharsets.UTF_8)));
    assertThat(letter.value.getValue())
        .isEqualTo(ByteBuffer.wrap("garbage".getBytes(StandardCharsets.UTF_8)));
    assertThat(letter.value.getService()).isEqualTo("parser");
    assertThat(letter.value.getError()).contains(topics.fetchResults().name());
    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getTitle)
        .containsExactly("ok");
    assertThat(outcomes.isEmpty()).isTrue();
  }

  @Test
  void aDocumentLargerThanARecordMayBeGoesToTheDeadLettersAndTheParserGoesOn() {
    start(new ParserSettings(ParserSettings.DEFAULTS.importedContentTypes(), 20_000_000, 0));
    // 9 MB of a Latin-1 page whose text is twice as long in UTF-8: a fetch result the topics take,
    // a parsed document they would refuse
    byte[] latin1 = new byte[9 * 1024 * 1024];
    Arrays.fill(latin1, (byte) 0xE9);
    FetchResult huge = result(A + "/latin", "text/html", "", Map.of());
    huge.setBody(ByteBuffer.wrap(latin1));
    huge.setCharset("ISO-8859-1");
    huge.setContentType("text/html");

    results.pipeInput(A, huge);
    results.pipeInput(A, result(A + "/", "text/html", "<title>ok</title>", Map.of()));

    DeadLetter letter = deadLetters.readValue();
    assertThat(letter.getService()).isEqualTo("parser");
    assertThat(letter.getError()).contains("too large", "not kept");
    assertThat(letter.getValue()).as("the input, 9 MB, is more than a dead letter keeps").isNull();
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getTitle)
        .containsExactly("ok");
  }

  @Test
  void sendsARecordWithoutAValueToTheDeadLettersAndGoesOn() {
    start(ParserSettings.DEFAULTS);

    results.pipeInput(A, (FetchResult) null);
    results.pipeInput(A, result(A + "/", "text/html", "<title>ok</title>", Map.of()));

    DeadLetter letter = deadLetters.readValue();
    assertThat(letter.getService()).isEqualTo("parser");
    assertThat(letter.getValue()).isNull();
    assertThat(letter.getErrorClass()).isEqualTo(IllegalArgumentException.class.getName());
    assertThat(parsed.readValuesToList())
        .extracting(ParsedDocument::getTitle)
        .containsExactly("ok");
  }

  /** A link, frame or canonical the parser found: normalized, and saying so. */
  private static DiscoveredUrl link(
      String url, UrlKind kind, String anchor, String source, int depth) {
    return DiscoveredUrl.newBuilder()
        .setUrl(url)
        .setNormalized(true)
        .setSourceUrl(source)
        .setDepth(depth)
        .setKind(kind)
        .setAnchor(anchor)
        .setDiscoveredAt(FETCHED)
        .build();
  }

  /**
   * An HTML page requested as {@code url}, answered by {@code finalUrl} after one redirect followed
   * in the fetch.
   */
  private static FetchResult redirected(String url, String finalUrl, String body) {
    FetchResult result = result(url, "text/html", body, Map.of());
    result.setRedirectChain(List.of(url));
    result.setFinalUrl(finalUrl);
    return result;
  }

  private static FetchResult result(
      String url, String type, String body, Map<String, String> headers) {
    return FetchResult.newBuilder()
        .setUrl(url)
        .setRequestId("req-1")
        .setDepth(1)
        .setAttempt(2)
        .setStatus(200)
        .setHeaders(new HashMap<>(headers))
        .setBody(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)))
        .setContentType(type)
        .setCharset("UTF-8")
        .setFetchedAt(FETCHED)
        .setDurationMillis(120)
        .setOptions(new HashMap<>())
        .build();
  }
}
