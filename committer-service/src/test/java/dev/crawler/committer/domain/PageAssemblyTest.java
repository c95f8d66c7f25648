package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.ParsedDocument;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PageAssemblyTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

  @Test
  void aDocumentWhosePagesReachTheTextBoundEndsWithThePageThatReachedIt() {
    // 200 pages of 1 MB each: the chain stops after the fourth, whose text reaches 4 MB
    String megabyte = "x".repeat(1024 * 1024);
    PageAssembly.Step step = PageAssembly.first(null, page(1, megabyte), NOW);
    Optional<ParsedDocument> assembled = step.assembled();
    int page = 1;
    while (assembled.isEmpty() && page < 200) {
      page++;
      step = PageAssembly.page(step.state(), page(page, megabyte), NOW).orElseThrow();
      assembled = step.assembled();
    }

    assertThat(page).isEqualTo(4);
    assertThat(step.pageCount()).isEqualTo(4);
    assertThat(assembled)
        .hasValueSatisfying(
            document -> {
              assertThat(document.getPageCount()).isEqualTo(4);
              assertThat(ParsedText.of(document).length())
                  .isEqualTo(4 * megabyte.length() + 3 * PageAssembly.PAGE_BREAK.length());
            });
  }

  @Test
  void aChainOfSmallPagesEndsWhereItsLastPageNamesNoNext() {
    PageAssembly.Step step = PageAssembly.first(null, page(1, "one"), NOW);
    step = PageAssembly.page(step.state(), page(2, "two"), NOW).orElseThrow();
    ParsedDocument last = ParsedDocument.newBuilder(page(3, "three")).setNextPage(null).build();

    step = PageAssembly.page(step.state(), last, NOW).orElseThrow();

    assertThat(step.assembled())
        .hasValueSatisfying(
            document -> assertThat(ParsedText.of(document)).isEqualTo("one\n\ntwo\n\nthree"));
  }

  @Test
  void aRecrawlPublishesTheChangedDocumentWhateverOrderItsPagesAreParsedIn() {
    // the crawl: the three pages in order
    PageAssembly.Step step = PageAssembly.first(null, page(1, "one"), NOW);
    step = PageAssembly.page(step.state(), page(2, "two"), NOW).orElseThrow();
    step = PageAssembly.page(step.state(), last(3, "three"), NOW).orElseThrow();
    assertThat(step.assembled()).isPresent();

    // the recrawl fetches the three at once: the last page is parsed first, unchanged, then the
    // first (the pass starts), then the second, changed
    step = PageAssembly.page(step.state(), last(3, "three"), NOW.plusSeconds(10)).orElseThrow();
    assertThat(step.assembled()).as("an unchanged page outside a pass").isEmpty();
    step = PageAssembly.first(step.state(), page(1, "one"), NOW.plusSeconds(11));
    assertThat(step.assembled()).as("the pass has just started").isEmpty();
    ParsedDocument changed =
        ParsedDocument.newBuilder(page(2, "two, changed")).setContentChecksum("changed").build();
    step = PageAssembly.page(step.state(), changed, NOW.plusSeconds(12)).orElseThrow();

    assertThat(step.assembled())
        .as("every page was reported since the document was last assembled")
        .hasValueSatisfying(
            document ->
                assertThat(ParsedText.of(document)).isEqualTo("one\n\ntwo, changed\n\nthree"));
  }

  @Test
  void aPassWaitsForThePagesNotReportedSinceTheDocumentWasLastAssembled() {
    PageAssembly.Step step = PageAssembly.first(null, page(1, "one"), NOW);
    step = PageAssembly.page(step.state(), page(2, "two"), NOW).orElseThrow();
    step = PageAssembly.page(step.state(), last(3, "three"), NOW).orElseThrow();

    step = PageAssembly.first(step.state(), page(1, "one"), NOW.plusSeconds(10));
    step =
        PageAssembly.page(step.state(), page(2, "two, changed"), NOW.plusSeconds(11)).orElseThrow();
    assertThat(step.assembled()).as("the third page is still to come").isEmpty();
    step = PageAssembly.page(step.state(), last(3, "three"), NOW.plusSeconds(12)).orElseThrow();

    assertThat(step.assembled()).isPresent();
  }

  /** Page n of a chain without end: each names page n + 1 as its next. */
  @Test
  void theDocumentsMarkdownIsItsPagesMarkdownInPageOrder() {
    PageAssembly.Step step = PageAssembly.first(null, withMarkdown(page(1, "one"), "# One"), NOW);
    step =
        PageAssembly.page(step.state(), withMarkdown(page(2, "two"), "two *a*"), NOW).orElseThrow();
    ParsedDocument third = withMarkdown(last(3, "three"), "- three");
    third.setMarkdownTruncated(true);

    step = PageAssembly.page(step.state(), third, NOW).orElseThrow();

    assertThat(step.state().getFirst().getMarkdown()).as("kept once, with its page").isNull();
    assertThat(step.assembled())
        .hasValueSatisfying(
            document -> {
              assertThat(document.getMarkdown()).isEqualTo("# One\n\ntwo *a*\n\n- three");
              assertThat(document.getMarkdownTruncated()).isTrue();
            });
  }

  @Test
  void aDocumentHasNoMarkdownWhenOneOfItsPagesHasNone() {
    PageAssembly.Step step = PageAssembly.first(null, withMarkdown(page(1, "one"), "# One"), NOW);

    step = PageAssembly.page(step.state(), last(2, "two"), NOW).orElseThrow();

    assertThat(step.assembled())
        .hasValueSatisfying(document -> assertThat(document.getMarkdown()).isNull());
  }

  @Test
  void aChainEndsWithThePageWhoseMarkdownReachesTheBound() {
    String megabyte = "x".repeat(1024 * 1024);
    PageAssembly.Step step =
        PageAssembly.first(null, withMarkdown(page(1, "one"), megabyte + megabyte), NOW);
    step =
        PageAssembly.page(step.state(), withMarkdown(page(2, "two"), megabyte), NOW).orElseThrow();
    assertThat(step.assembled()).isEmpty();

    step =
        PageAssembly.page(step.state(), withMarkdown(page(3, "three"), megabyte), NOW)
            .orElseThrow();

    assertThat(step.pageCount()).isEqualTo(3);
    assertThat(step.assembled())
        .hasValueSatisfying(document -> assertThat(document.getPageCount()).isEqualTo(3));
  }

  private static ParsedDocument withMarkdown(ParsedDocument page, String markdown) {
    return ParsedDocument.newBuilder(page).setMarkdown(markdown).build();
  }

  /** Page n as the chain's last: it names no next page. */
  private static ParsedDocument last(int n, String text) {
    return ParsedDocument.newBuilder(page(n, text)).setNextPage(null).build();
  }

  private static ParsedDocument page(int n, String text) {
    return ParsedDocument.newBuilder()
        .setUrl("http://a.example/story?page=" + n)
        .setText(ParsedText.utf8(text))
        .setContentChecksum("checksum-" + n)
        .setNextPage("http://a.example/story?page=" + (n + 1))
        .build();
  }
}
