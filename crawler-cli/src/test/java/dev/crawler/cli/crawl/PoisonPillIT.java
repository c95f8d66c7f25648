package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile pages that halted a crawl for good (each made a record Kafka refused, and the stream
 * thread tried it again for ever): a page holding one 5 MB link, and a multi-page document of 1 MB
 * pages, 40 MB in all, beside ordinary pages. The crawl must end by itself, the ordinary pages
 * published, the long link dropped, the document published up to its bound.
 */
class PoisonPillIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STORY_PAGES = 40;
  private static final Duration BOUND = Duration.ofSeconds(240);

  @TempDir Path work;

  @RegisterExtension final EditableSite site = new EditableSite();

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS) // a crawl that never becomes idle fails here
  void aPageWithAHugeLinkAndAHugeMultiPageDocumentStopNothing() throws Exception {
    StringBuilder home =
        new StringBuilder("<a href=\"/huge-link\">huge</a> <a href=\"/story?page=1\">story</a>");
    for (int i = 1; i <= 20; i++) {
      site.pages().put("/good-" + i, EditableSite.page("good " + i, "an ordinary page"));
      home.append(" <a href=\"/good-").append(i).append("\">good</a>");
    }
    site.pages().put("/", EditableSite.page("home", home.toString()));
    site.pages()
        .put(
            "/huge-link",
            EditableSite.page(
                "huge", "<a href=\"/" + "x".repeat(5 * 1024 * 1024) + "\">one link</a>"));
    String megabyte = "word ".repeat(200 * 1024);
    for (int page = 1; page <= STORY_PAGES; page++) {
      String next =
          page < STORY_PAGES
              ? "<a rel=\"next\" href=\"/story?page=" + (page + 1) + "\">next</a>"
              : "";
      site.pages().put("/story?page=" + page, EditableSite.page("story", megabyte + next));
    }
    Path config = Files.writeString(work.resolve("crawl.yaml"), "global: {pagination: rel=next}\n");
    long started = System.nanoTime();

    int exit =
        CrawlerCli.run(
            new String[] {
              "crawl",
              site.url() + "/",
              "--config",
              config.toString(),
              "--delay-ms",
              "0",
              "--data-dir",
              work.resolve("data").toString(),
              "--out",
              work.resolve("documents.jsonl").toString(),
              "--crawl-log",
              work.resolve("log.jsonl").toString()
            });

    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(exit).isZero();
    assertThat(took).as("the crawl ended by itself, idle").isLessThan(BOUND);
    Map<String, JsonNode> documents = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("documents.jsonl"))) {
      documents.put(line.get("url").asText(), line);
    }
    for (int i = 1; i <= 20; i++) {
      assertThat(documents).containsKey(site.url() + "/good-" + i);
    }
    assertThat(documents).containsKey(site.url() + "/huge-link");
    JsonNode story = documents.get(site.url() + "/story?page=1");
    assertThat(story).as("the multi-page document").isNotNull();
    // pages of 1,000,000 characters: the fifth reaches the 4 MiB bound, and the chain ends there
    assertThat(story.get("pageCount").asInt()).isEqualTo(5);
    List<String> logged = new ArrayList<>();
    for (JsonNode line : lines(work.resolve("log.jsonl"))) {
      logged.add(line.get("url").asText());
    }
    assertThat(logged).noneMatch(url -> url.length() > 8192);
  }

  private static List<JsonNode> lines(Path file) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
