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

  /** Page n of a chain without end: each names page n + 1 as its next. */
  private static ParsedDocument page(int n, String text) {
    return ParsedDocument.newBuilder()
        .setUrl("http://a.example/story?page=" + n)
        .setText(ParsedText.utf8(text))
        .setContentChecksum("checksum-" + n)
        .setNextPage("http://a.example/story?page=" + (n + 1))
        .build();
  }
}
