package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code crawler crawl} command end to end: the embedded broker and registry, all four
 * services, a real HTTP site on three origins of 127.0.0.1.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CrawlIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long DELAY_MILLIS = 300;

  @TempDir static Path work;

  private static TestSite site;

  @BeforeAll
  static void startSite() throws Exception {
    site = new TestSite();
  }

  @AfterAll
  static void stopSite() throws Exception {
    site.close();
  }

  @Test
  @Order(1)
  void crawlsTheSiteThroughAllFourServicesAndPublishesExactlyTheExpectedDocuments()
      throws IOException {
    int exit = crawl("first");

    assertThat(exit).isZero();
    String a = site.a();
    String b = site.b();
    assertThat(documents("first"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                Map.entry(a + "/", "Home of A"),
                Map.entry(a + "/about", "About A"),
                Map.entry(a + "/new", "New A"),
                Map.entry(a + "/canonical", "Canonical"),
                Map.entry(a + "/from-noindex", "From noindex"),
                Map.entry(a + "/nofollow", "Nofollow"),
                Map.entry(a + "/frames", "Frames"),
                Map.entry(a + "/frame-a", "Frame A"),
                Map.entry(a + "/frame-b", "Frame B"),
                Map.entry(a + "/frame-c", "Frame C"),
                Map.entry(a + "/from-sitemap", "From sitemap"),
                Map.entry(b + "/", "Home of B"),
                Map.entry(b + "/b1", "B1")));
    assertThat(outcomes("first"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                Map.entry(a + "/", List.of("COMMITTED")),
                Map.entry(a + "/about", List.of("COMMITTED")),
                Map.entry(a + "/private/secret", List.of("BLOCKED_BY_ROBOTS_TXT")),
                Map.entry(a + "/old", List.of("REDIRECT")),
                Map.entry(a + "/new", List.of("COMMITTED")),
                Map.entry(a + "/missing", List.of("NOT_FOUND")),
                Map.entry(a + "/dup", List.of("NONCANONICAL")),
                Map.entry(a + "/canonical", List.of("COMMITTED")),
                Map.entry(a + "/noindex", List.of("NOINDEX")),
                Map.entry(a + "/from-noindex", List.of("COMMITTED")),
                Map.entry(a + "/nofollow", List.of("COMMITTED")),
                Map.entry(a + "/frames", List.of("COMMITTED")),
                Map.entry(a + "/frame-a", List.of("COMMITTED")),
                Map.entry(a + "/frame-b", List.of("COMMITTED")),
                Map.entry(a + "/frame-c", List.of("COMMITTED")),
                Map.entry(a + "/photo.png", List.of("FILTERED")),
                Map.entry(a + "/data.json", List.of("IMPORT_REJECTED")),
                Map.entry(site.c() + "/c-page", List.of("OUT_OF_SCOPE")),
                Map.entry(a + "/sitemap.xml", List.of("SITEMAP")),
                Map.entry(a + "/from-sitemap", List.of("COMMITTED")),
                Map.entry(b + "/sitemap.xml", List.of("NOT_FOUND")),
                Map.entry(b + "/", List.of("COMMITTED")),
                Map.entry(b + "/b1", List.of("COMMITTED"))));
    assertThat(logEntry("first", a + "/old").get("detail").asText()).isEqualTo("301 " + a + "/new");
    assertThat(logEntry("first", a + "/sitemap.xml").get("detail").asText())
        .isEqualTo("xml sitemap: 2 URLs, 0 sitemaps");
    assertThat(logEntry("first", a + "/photo.png").get("detail").asText())
        .isEqualTo("IGNORED_EXTENSION png");
  }

  @Test
  @Order(2)
  void requestsOnlyWhatItMayAndNeverTwoRequestsToOneOriginCloserThanTheDelay() {
    List<TestSite.Hit> hits = site.hits();
    Map<Integer, List<TestSite.Hit>> byOrigin =
        hits.stream()
            .collect(Collectors.groupingBy(TestSite.Hit::port, TreeMap::new, Collectors.toList()));
    int a = port(site.a());
    int b = port(site.b());

    assertThat(byOrigin.keySet()).containsExactlyInAnyOrder(a, b);
    assertThat(byOrigin.get(a))
        .extracting(TestSite.Hit::path)
        .containsExactlyInAnyOrder(
            "/robots.txt",
            "/.well-known/tdmrep.json",
            "/",
            "/about",
            "/old",
            "/new",
            "/missing",
            "/dup",
            "/canonical",
            "/noindex",
            "/from-noindex",
            "/nofollow",
            "/frames",
            "/frame-a",
            "/frame-b",
            "/frame-c",
            "/data.json",
            "/sitemap.xml",
            "/from-sitemap");
    assertThat(byOrigin.get(a).get(0).path()).isEqualTo("/robots.txt");
    assertThat(byOrigin.get(a).get(1).path())
        .as("the origin's TDM reservation, read after robots.txt")
        .isEqualTo("/.well-known/tdmrep.json");
    assertThat(byOrigin.get(b))
        .extracting(TestSite.Hit::path)
        .containsExactlyInAnyOrder(
            "/robots.txt", "/.well-known/tdmrep.json", "/", "/b1", "/sitemap.xml");
    for (List<TestSite.Hit> origin : byOrigin.values()) {
      for (int i = 1; i < origin.size(); i++) {
        long gap =
            TimeUnit.NANOSECONDS.toMillis(origin.get(i).nanoTime() - origin.get(i - 1).nanoTime());
        assertThat(gap)
            .as("gap before %s", origin.get(i).path())
            .isGreaterThanOrEqualTo(DELAY_MILLIS);
      }
    }
  }

  @Test
  @Order(3)
  void runningTheSameCrawlAgainResumesAndFetchesNothingKnown() throws IOException {
    int before = site.hits().size();

    int exit = crawl("second");

    assertThat(exit).isZero();
    assertThat(site.hits()).hasSize(before);
    assertThat(documents("second")).isEmpty();
    assertThat(outcomes("second")).isEmpty();
  }

  @Test
  @Order(4)
  void stopsAfterTheMaximumPages() throws IOException {
    int before = site.hits().size();

    int exit = crawl("limited", "limited-data", site.a() + "/", "--max-pages", "3");

    assertThat(exit).isZero();
    List<TestSite.Hit> hits = site.hits().subList(before, site.hits().size());
    // three requests released: each ends in exactly one
    // outcome (a robots.txt block is one, without a hit)
    List<JsonNode> ended =
        lines(work.resolve("limited-log.jsonl")).stream()
            .filter(line -> !line.get("service").asText().equals("frontier"))
            .toList();
    assertThat(ended).hasSize(3);
    long blocked =
        ended.stream()
            .filter(line -> line.get("outcome").asText().equals("BLOCKED_BY_ROBOTS_TXT"))
            .count();
    assertThat(hits)
        .extracting(TestSite.Hit::path)
        .filteredOn(path -> !path.equals("/robots.txt") && !path.equals("/.well-known/tdmrep.json"))
        .hasSize(3 - (int) blocked);
  }

  @Test
  @Order(5)
  void aCrawlConfigurationWithNestedRulesDecidesWhatIsCrawledAndLogged() throws IOException {
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"),
            """
            global: {default-allow: allow, max-depth: 1}
            rules:
              - apply-for: {host: 127.0.0.1}
                name: local
                rules:
                  - may-not-have: {path-prefix: /frame-}
                    name: no-frames
                    log: true
                  - may-not-have: {path-prefix: /about}
              - apply-for: {path-prefix: /canonical}
                name: canonical
                options: {default-allow: disallow-log}
            """);
    int before = site.hits().size();

    int exit = crawl("rules", "rules-data", site.a() + "/", "--config", config.toString());

    assertThat(exit).isZero();
    String a = site.a();
    Map<String, List<String>> outcomes = outcomes("rules");
    assertThat(outcomes)
        .containsEntry(a + "/frames", List.of("COMMITTED"))
        .containsEntry(a + "/dup", List.of("NONCANONICAL"))
        .doesNotContainKey(a + "/about");
    assertThat(logEntry("rules", a + "/frame-a").get("detail").asText())
        .isEqualTo("RULE no-frames");
    assertThat(logEntry("rules", a + "/frame-a").get("rule").asText()).isEqualTo("no-frames");
    assertThat(logEntry("rules", a + "/canonical").get("outcome").asText()).isEqualTo("FILTERED");
    assertThat(logEntry("rules", a + "/canonical").get("detail").asText())
        .startsWith("DEFAULT_DISALLOW");
    assertThat(logEntry("rules", a + "/from-noindex").get("outcome").asText())
        .isEqualTo("TOO_DEEP");
    List<String> requested =
        site.hits().subList(before, site.hits().size()).stream().map(TestSite.Hit::path).toList();
    assertThat(requested)
        .doesNotContain("/about", "/frame-a", "/frame-b", "/canonical", "/from-noindex")
        .contains("/frames", "/dup");
  }

  private static int crawl(String run) {
    return crawl(run, "data", site.a() + "/", site.b() + "/");
  }

  private static int crawl(String run, String dataDir, String... seedsAndOptions) {
    List<String> args = new ArrayList<>(List.of("crawl"));
    args.addAll(List.of(seedsAndOptions));
    args.addAll(
        List.of(
            "--delay-ms", Long.toString(DELAY_MILLIS),
            "--data-dir", work.resolve(dataDir).toString(),
            "--out", work.resolve(run + "-documents.jsonl").toString(),
            "--crawl-log", work.resolve(run + "-log.jsonl").toString()));
    return CrawlerCli.run(args.toArray(String[]::new));
  }

  /** URL to title of every upsert. */
  private static Map<String, String> documents(String run) throws IOException {
    Map<String, String> documents = new TreeMap<>();
    for (JsonNode line : lines(work.resolve(run + "-documents.jsonl"))) {
      assertThat(line.get("type").asText()).isEqualTo("UPSERT");
      assertThat(documents.put(line.get("url").asText(), line.get("title").asText()))
          .as("one upsert per URL")
          .isNull();
      assertThat(line.get("checksum").asText()).hasSize(64);
    }
    return documents;
  }

  /** URL to the outcomes logged for it, in order. */
  private static Map<String, List<String>> outcomes(String run) throws IOException {
    Map<String, List<String>> outcomes = new TreeMap<>();
    for (JsonNode line : lines(work.resolve(run + "-log.jsonl"))) {
      outcomes
          .computeIfAbsent(line.get("url").asText(), url -> new ArrayList<>())
          .add(line.get("outcome").asText());
    }
    return outcomes;
  }

  private static JsonNode logEntry(String run, String url) throws IOException {
    return lines(work.resolve(run + "-log.jsonl")).stream()
        .filter(line -> line.get("url").asText().equals(url))
        .findFirst()
        .orElseThrow();
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  private static int port(String origin) {
    return Integer.parseInt(origin.substring(origin.lastIndexOf(':') + 1));
  }
}
