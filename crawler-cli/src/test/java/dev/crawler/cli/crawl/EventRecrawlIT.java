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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-driven recrawl (seed 000) and multi-page documents through the whole system: a blog
 * whose three-page article is published as one document, then recrawled by the scheduler's events
 * (one run per page, each document once: {@code recrawl.max-count: 1}); the article's second page
 * changes on every visit, so the recrawl publishes a second version, with the permalink and publish
 * date kept.
 */
class EventRecrawlIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  @RegisterExtension final EditableSite editable = new EditableSite();
  private final Map<String, String> pages = editable.pages();
  private final String site = editable.url();

  @Test
  void recrawlEventsRefreshAThreePageArticlePublishedAsOneDocument() throws Exception {
    pages.put(
        "/",
        EditableSite.page("Blog", "<a href=\"/article\">article</a> <a href=\"/post\">post</a>"));
    pages.put("/post", EditableSite.page("Post", "a single page"));
    pages.put(
        "/article",
        EditableSite.page("Article", "page one <a rel=\"next\" href=\"/article?page=2\">next</a>"));
    pages.put(
        "/article?page=2",
        EditableSite.page(
            "Article, page 2",
            "page two, visit {visit} <a rel=\"next\" href=\"/article?page=3\">next</a>"));
    pages.put("/article?page=3", EditableSite.page("Article, page 3", "page three, the end"));
    Path config =
        Files.writeString(
            work.resolve("crawl.yaml"),
            """
            global:
              sitemap-xml: false
              pagination: rel=next
              recrawl.active: true
              recrawl.interval: 2s
              recrawl.runs-per-event: 3
              recrawl.max-count: 1
            sites:
              - name: blog
                seeds: [%s/]
            """
                .replace("%s", site));

    int exit =
        CrawlerCli.run(
            "crawl",
            site + "/",
            "--delay-ms",
            "0",
            "--config",
            config.toString(),
            "--run-for",
            "30s",
            "--data-dir",
            work.resolve("data").toString(),
            "--out",
            work.resolve("documents.jsonl").toString());

    assertThat(exit).isZero();
    List<JsonNode> articles =
        events().stream().filter(e -> e.get("url").asText().equals(site + "/article")).toList();
    assertThat(articles).as("the article, then its recrawl with page 2 changed").hasSize(2);
    JsonNode first = articles.get(0);
    JsonNode second = articles.get(1);
    assertThat(first.get("pageCount").asInt()).isEqualTo(3);
    assertThat(first.get("text").asText())
        .containsSubsequence("page one", "page two, visit 1", "page three, the end");
    assertThat(second.get("text").asText())
        .containsSubsequence("page one", "page two, visit 2", "page three, the end");
    assertThat(second.get("markdown").asText())
        .as("the markdown of every page, in page order")
        .containsSubsequence("page one", "page two, visit 2", "page three, the end");
    assertThat(second.get("version").asInt()).isEqualTo(2);
    assertThat(second.get("permalink")).isEqualTo(first.get("permalink"));
    assertThat(second.get("publishedAt")).isEqualTo(first.get("publishedAt"));
    assertThat(events())
        .extracting(e -> e.get("url").asText())
        .doesNotContain(site + "/article?page=2", site + "/article?page=3");
    assertThat(events())
        .filteredOn(e -> e.get("url").asText().equals(site + "/post"))
        .as("an unchanged post is not published again")
        .hasSize(1);
    // every page fetched by the crawl and once more by a recrawl event, never a third time
    for (String path : List.of("/", "/post", "/article", "/article?page=2", "/article?page=3")) {
      assertThat(editable.visits(path)).as(path).isEqualTo(2);
    }
  }

  private List<JsonNode> events() throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(work.resolve("documents.jsonl"))) {
      events.add(JSON.readTree(line));
    }
    return events;
  }
}
