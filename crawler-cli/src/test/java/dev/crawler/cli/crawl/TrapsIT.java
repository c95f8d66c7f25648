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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * URL traps and budgets end to end with the default configuration: a calendar and a growing path
 * beside good pages, and a 5,000-article dated archive, crawled by {@code crawler crawl} through
 * all four services and the embedded broker.
 */
class TrapsIT {

  /** What a crawl reads of each origin besides its pages, which no budget counts. */
  private static final Set<String> ORIGIN_FILES = Set.of("/robots.txt", "/.well-known/tdmrep.json");

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path work;

  private static TrapSite site;

  @BeforeAll
  static void startSite() throws Exception {
    site = new TrapSite();
  }

  @AfterAll
  static void stopSite() throws Exception {
    site.close();
  }

  @Test
  void theDefaultsStopBothTrapsEarlyWhileEveryGoodPageAndTheWholeDatedArchiveAreCommitted()
      throws IOException {
    int trapBefore = site.trapHits().size();
    int archiveBefore = site.archiveHits().size();

    int exit = crawl("defaults", site.trap() + "/", site.archive() + "/");

    assertThat(exit).isZero();
    List<String> trapHits = site.trapHits().subList(trapBefore, site.trapHits().size());
    List<String> archiveHits = site.archiveHits().subList(archiveBefore, site.archiveHits().size());
    long calendarPages = trapHits.stream().filter(path -> path.startsWith("/cal/")).count();
    List<String> growing = trapHits.stream().filter(path -> path.startsWith("/a/")).toList();
    System.out.printf(
        Locale.ROOT,
        "trap origin: %d requests, %d calendar pages, growing path %s; archive origin: %d requests%n",
        trapHits.size(),
        calendarPages,
        growing,
        archiveHits.size());
    assertThat(calendarPages)
        .as("the calendar is followed a few links, not without end")
        .isBetween(6L, 200L);
    assertThat(growing)
        .as("/a/a/a/ repeats a segment 3 times")
        .containsExactlyInAnyOrder("/a/", "/a/a/");
    assertThat(trapHits).as("no page fetched twice").doesNotHaveDuplicates();
    assertThat(archiveHits).doesNotHaveDuplicates();

    Map<String, String> committed =
        outcomes("defaults").entrySet().stream()
            .filter(e -> e.getValue().equals("COMMITTED"))
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    List<String> good =
        IntStream.rangeClosed(1, TrapSite.GOOD_PAGES)
            .mapToObj(i -> site.trap() + "/good/" + i)
            .toList();
    assertThat(committed).containsKeys(good.toArray(String[]::new));
    List<String> articles =
        IntStream.rangeClosed(1, TrapSite.ARTICLES)
            .mapToObj(n -> site.archive() + TrapSite.articlePath(n))
            .toList();
    assertThat(articles.stream().filter(url -> !committed.containsKey(url)).toList())
        .as("articles not committed")
        .isEmpty();
    long months =
        committed.keySet().stream()
            .filter(url -> url.startsWith(site.archive()) && url.matches(".*/\\d{4}/\\d{2}/$"))
            .count();
    assertThat(months).as("every month page").isEqualTo(TrapSite.months());

    JsonNode repeated = logEntry("defaults", site.trap() + "/a/a/a/");
    assertThat(repeated.get("outcome").asText()).isEqualTo("FILTERED");
    assertThat(repeated.get("detail").asText())
        .isEqualTo("TRAP_REPEATED_SEGMENT 'a' 3 times in a row > 2");
    List<JsonNode> calendar =
        lines("defaults").stream()
            .filter(
                line ->
                    line.get("detail") != null
                        && line.get("detail").asText().startsWith("TRAP_CALENDAR"))
            .toList();
    assertThat(calendar)
        .isNotEmpty()
        .allSatisfy(
            line ->
                assertThat(line.get("rule").asText())
                    .isEqualTo("max-calendar-hops set by default"));
  }

  @Test
  void budgetsAdmitExactlyTheMostPagesOfAnOriginAndOfASiteAcrossItsOrigins() throws IOException {
    // both origins are on 127.0.0.1: one site of two origins
    Path config =
        Files.writeString(
            work.resolve("budgets.yaml"),
            """
            global: {max-pages-per-site: 60, sitemap-xml: false}
            rules:
              - apply-for: {url-regex: '^%s/'}
                name: trap-origin
                options: {max-pages-per-origin: 20}
            """
                .replace("%s", site.trap().replace(".", "\\.")));
    int trapBefore = site.trapHits().size();
    int archiveBefore = site.archiveHits().size();

    int exit =
        crawl("budgets", site.trap() + "/", site.archive() + "/", "--config", config.toString());

    assertThat(exit).isZero();
    List<String> trapPages =
        site.trapHits().subList(trapBefore, site.trapHits().size()).stream()
            .filter(path -> !ORIGIN_FILES.contains(path))
            .toList();
    List<String> archivePages =
        site.archiveHits().subList(archiveBefore, site.archiveHits().size()).stream()
            .filter(path -> !ORIGIN_FILES.contains(path))
            .toList();
    assertThat(trapPages).as("the origin's budget").hasSize(20);
    assertThat(archivePages).as("the site's budget less what the trap origin used").hasSize(40);
    List<JsonNode> lines = lines("budgets");
    assertThat(
            lines.stream()
                .filter(
                    line ->
                        line.get("detail") != null
                            && line.get("detail").asText().startsWith("BUDGET_ORIGIN"))
                .map(line -> line.get("rule").asText())
                .distinct())
        .containsExactly("max-pages-per-origin set by rule:trap-origin");
    assertThat(
            lines.stream()
                .filter(
                    line ->
                        line.get("detail") != null
                            && line.get("detail").asText().startsWith("BUDGET_SITE"))
                .map(line -> line.get("detail").asText())
                .distinct())
        .containsExactly(
            "BUDGET_SITE 127.0.0.1 has admitted 60 URLs, the most max-pages-per-site allows");
    Map<String, Long> loggedPerUrl =
        lines.stream()
            .filter(line -> line.get("outcome").asText().equals("FILTERED"))
            .collect(
                Collectors.groupingBy(line -> line.get("url").asText(), Collectors.counting()));
    assertThat(loggedPerUrl.values()).as("a URL past a budget is logged once").containsOnly(1L);
  }

  private static int crawl(String run, String... seedsAndOptions) {
    List<String> args = new ArrayList<>(List.of("crawl"));
    args.addAll(List.of(seedsAndOptions));
    args.addAll(
        List.of(
            "--delay-ms", "0",
            "--data-dir", work.resolve(run + "-data").toString(),
            "--out", work.resolve(run + "-documents.jsonl").toString(),
            "--crawl-log", work.resolve(run + "-log.jsonl").toString()));
    return CrawlerCli.run(args.toArray(String[]::new));
  }

  /** URL to the last outcome logged for it. */
  private static Map<String, String> outcomes(String run) throws IOException {
    return lines(run).stream()
        .collect(
            Collectors.toMap(
                line -> line.get("url").asText(),
                line -> line.get("outcome").asText(),
                (first, last) -> last));
  }

  private static JsonNode logEntry(String run, String url) throws IOException {
    return lines(run).stream()
        .filter(line -> line.get("url").asText().equals(url))
        .findFirst()
        .orElseThrow();
  }

  private static List<JsonNode> lines(String run) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(work.resolve(run + "-log.jsonl"))) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
