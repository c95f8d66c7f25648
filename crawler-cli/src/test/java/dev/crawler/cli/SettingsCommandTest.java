package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SettingsCommandTest {

  @Test
  void theDocumentedReferenceIsTheGeneratedOne() throws IOException {
    Path documented = Path.of("..", "docs", "settings.md");

    assertThat(Files.readString(documented))
        .as(
            "docs/settings.md is out of date: regenerate it with ./crawler settings > docs/settings.md")
        .isEqualTo(SettingsCommand.reference());
  }

  @Test
  void listsEverySettingWithItsVariable() {
    assertThat(SettingsCommand.reference())
        .contains(
            "| `fetcher.user.agent` | `CRAWLER_FETCHER_USER_AGENT` | string | `kafka-crawler/0.1` |")
        .contains("`frontier.max.depth`")
        .contains("`parser.imported.content.types`")
        .contains("## committer-service");
  }
}
