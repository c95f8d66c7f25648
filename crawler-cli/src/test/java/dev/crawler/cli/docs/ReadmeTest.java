package dev.crawler.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.CrawlOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the README shows is what the code does. */
class ReadmeTest {

  private static final Path README = Path.of("..", "README.md");

  /** The document types the parser imports whose extensions are in the default ignored list. */
  private static final List<String> DOCUMENTS =
      List.of("doc", "xls", "pdf", "docx", "xlsx", "ppt", "pptx");

  @Test
  void theLineThatImportsDocumentsIsTheDefaultListWithoutThem() throws IOException {
    String line =
        Files.readAllLines(README).stream()
            .filter(text -> text.startsWith("global: {ignore-extensions:"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("README shows no ignore-extensions line"));

    CrawlConfig config = CrawlConfigLoader.parse(line, "README.md");

    assertThat(config.globalValue(CrawlOption.IGNORE_EXTENSIONS))
        .containsExactlyElementsOf(
            CrawlOption.DEFAULT_IGNORED_EXTENSIONS.stream()
                .filter(extension -> !DOCUMENTS.contains(extension))
                .toList());
    assertThat(CrawlOption.DEFAULT_IGNORED_EXTENSIONS).containsAll(DOCUMENTS);
  }
}
