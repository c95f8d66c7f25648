package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two crawls of a site that changes between them (a page edited, one removed, one made noindex, one
 * given another canonical, one added), the second with {@code --force-recrawl} on the same data
 * directory: replaying {@code crawl.documents} from the start gives exactly the live site.
 */
class RecrawlIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  @RegisterExtension final EditableSite editable = new EditableSite();
  private final Map<String, String> pages = editable.pages();
  private final String site = editable.url();

  @Test
  void theDocumentsAfterASecondCrawlAreTheLiveSite() throws Exception {
    pages.put(
        "/",
        EditableSite.page(
            "Home",
            "<a href=\"/edited\">e</a> <a href=\"/removed\">r</a> <a href=\"/hidden\">h</a> <a href=\"/moved\">m</a>"));
    pages.put("/edited", EditableSite.page("Edited", "first version"));
    pages.put("/removed", EditableSite.page("Removed", "here today"));
    pages.put("/hidden", EditableSite.page("Hidden", "indexable for now"));
    pages.put("/moved", EditableSite.page("Moved", "its own canonical for now"));

    assertThat(crawl(site, "first")).isZero();
    assertThat(live("first"))
        .containsOnlyKeys(
            site + "/", site + "/edited", site + "/removed", site + "/hidden", site + "/moved");

    pages.put("/edited", EditableSite.page("Edited", "second version"));
    pages.remove("/removed");
    pages.put(
        "/hidden",
        "<html><head><title>Hidden</title><meta name=\"robots\" content=\"noindex\"></head><body>hidden now</body></html>");
    pages.put(
        "/moved",
        "<html><head><title>Moved</title><link rel=\"canonical\" href=\"/new-home\"></head><body>moved</body></html>");
    pages.put("/new-home", EditableSite.page("New home", "the canonical of /moved"));

    assertThat(crawl(site, "second", "--force-recrawl")).isZero();

    Map<String, JsonNode> live = live("first", "second");
    assertThat(live).containsOnlyKeys(site + "/", site + "/edited", site + "/new-home");
    assertThat(live.get(site + "/edited").get("title").asText()).isEqualTo("Edited");
    assertThat(upserts("second"))
        .as("the unchanged home page is not sent again")
        .containsExactlyInAnyOrder(site + "/edited", site + "/new-home");
    List<JsonNode> deletes =
        events("second").stream().filter(e -> e.get("type").asText().equals("DELETE")).toList();
    assertThat(deletes)
        .extracting(e -> e.get("url").asText())
        .containsExactlyInAnyOrder(site + "/removed", site + "/hidden", site + "/moved");
  }

  @Test
  void aRecrawlDeletesTheDocumentsOfPagesNoLongerLinkedWhenTheConfigurationSaysSo()
      throws Exception {
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"), "global: {orphans: delete, sitemap-xml: false}\n");
    pages.put(
        "/", EditableSite.page("Home", "<a href=\"/kept\">k</a> <a href=\"/unlinked\">u</a>"));
    pages.put("/kept", EditableSite.page("Kept", "still linked"));
    pages.put(
        "/unlinked", EditableSite.page("Unlinked", "soon linked from nowhere, but still here"));

    assertThat(crawl(site, "first", "--config", config.toString())).isZero();
    pages.put("/", EditableSite.page("Home", "<a href=\"/kept\">k</a>"));
    assertThat(crawl(site, "second", "--config", config.toString(), "--force-recrawl")).isZero();

    assertThat(live("first", "second")).containsOnlyKeys(site + "/", site + "/kept");
    assertThat(events("second"))
        .filteredOn(e -> e.get("type").asText().equals("DELETE"))
        .extracting(e -> e.get("url").asText() + " " + e.get("reason").asText())
        .containsExactly(site + "/unlinked ORPHAN");
  }

  @Test
  void theChunkTopicsLiveSetIsThePagesCurrentChunksThroughAChangeAndA404() throws Exception {
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"), "global: {chunk-max-chars: 300, sitemap-xml: false}\n");
    String section = "The text of a section, long enough for a chunk of its own. ".repeat(4);
    pages.put("/", EditableSite.page("Home", "<a href=\"/guide\">guide</a>"));
    pages.put(
        "/guide",
        EditableSite.page(
            "Guide",
            "<main><h1>Guide</h1><h2>Install</h2><p>"
                + section
                + "</p><h2>Configure</h2><p>"
                + section
                + "</p><h2>Run</h2><p>"
                + section
                + "</p></main>"));

    assertThat(crawl(site, "first", "--config", config.toString())).isZero();
    Map<String, JsonNode> live = new TreeMap<>();
    replayChunks(live, "first");
    assertThat(guideChunks(live))
        .as("the guide's chunks: one per section")
        .extracting(chunk -> chunk.get("headingPath").toString())
        .containsExactlyInAnyOrder(
            "[\"Guide\",\"Install\"]", "[\"Guide\",\"Configure\"]", "[\"Guide\",\"Run\"]");

    pages.put(
        "/guide",
        EditableSite.page(
            "Guide",
            "<main><h1>Guide</h1><h2>Install</h2><p>"
                + section
                + "</p><h2>Run</h2><p>Run it, a section rewritten. "
                + section
                + "</p></main>"));
    assertThat(crawl(site, "second", "--config", config.toString(), "--force-recrawl")).isZero();
    replayChunks(live, "second");
    List<JsonNode> current = guideChunks(live);
    assertThat(current)
        .as("the chunks of the shrunk page, of its second version only")
        .hasSize(2)
        .allSatisfy(chunk -> assertThat(chunk.get("documentVersion").asLong()).isEqualTo(2));
    assertThat(lines("second-chunks.jsonl"))
        .filteredOn(e -> e.get("event").asText().equals("TOMBSTONE"))
        .as("a tombstone for each chunk the page no longer has")
        .hasSize(2);

    pages.remove("/guide");
    assertThat(crawl(site, "third", "--config", config.toString(), "--force-recrawl")).isZero();
    replayChunks(live, "third");
    assertThat(guideChunks(live)).as("the page is gone: so are its chunks").isEmpty();
  }

  private void replayChunks(Map<String, JsonNode> live, String run) throws Exception {
    for (JsonNode event : lines(run + "-chunks.jsonl")) {
      if (event.get("event").asText().equals("UPSERT")) {
        live.put(event.get("id").asText(), event);
      } else {
        live.remove(event.get("id").asText());
      }
    }
  }

  private List<JsonNode> guideChunks(Map<String, JsonNode> live) {
    return live.values().stream()
        .filter(chunk -> chunk.get("url").asText().equals(site + "/guide"))
        .toList();
  }

  private int crawl(String site, String run, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "crawl",
                site + "/",
                "--delay-ms",
                "0",
                "--data-dir",
                work.resolve("data").toString()));
    args.addAll(
        List.of(
            "--out",
            work.resolve(run + "-documents.jsonl").toString(),
            "--chunks",
            work.resolve(run + "-chunks.jsonl").toString(),
            "--crawl-log",
            work.resolve(run + "-log.jsonl").toString()));
    args.addAll(List.of(more));
    return CrawlerCli.run(args.toArray(String[]::new));
  }

  /**
   * The live set after replaying these runs' document events in order: upserts put, deletes remove.
   */
  private Map<String, JsonNode> live(String... runs) throws Exception {
    Map<String, JsonNode> live = new TreeMap<>();
    for (String run : runs) {
      for (JsonNode event : events(run)) {
        if (event.get("type").asText().equals("UPSERT")) {
          live.put(event.get("url").asText(), event);
        } else {
          live.remove(event.get("url").asText());
        }
      }
    }
    return live;
  }

  private List<String> upserts(String run) throws Exception {
    return events(run).stream()
        .filter(e -> e.get("type").asText().equals("UPSERT"))
        .map(e -> e.get("url").asText())
        .toList();
  }

  private List<JsonNode> events(String run) throws Exception {
    return lines(run + "-documents.jsonl");
  }

  private List<JsonNode> lines(String file) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(work.resolve(file))) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
