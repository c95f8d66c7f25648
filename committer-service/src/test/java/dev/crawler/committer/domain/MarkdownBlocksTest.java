package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.committer.domain.MarkdownBlocks.Block;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MarkdownBlocksTest {

  /** In the table, ⏎ stands for a line feed; a heading is written H and its level. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '"',
      value = {
        "# A⏎text⏎more⏎⏎## B => H1 TEXT H2",
        "####### seven => TEXT",
        "#hashtag => TEXT",
        "   ### indented three => H3",
        "\\# escaped => TEXT",
        "para⏎```js⏎a⏎⏎# not a heading⏎```⏎after => TEXT FENCE TEXT",
        "~~~~⏎```⏎~~~⏎~~~~ => FENCE",
        "``` inline ``` code => TEXT",
        "- item⏎  ```⏎⏎  code⏎  ```⏎- next => TEXT FENCE TEXT",
        "> ```⏎> quoted⏎>⏎> ``` => FENCE",
        "| a | b |⏎| - | - |⏎| 1 | 2 |⏎⏎text => TEXT TEXT",
        "```⏎never closed⏎⏎  => FENCE",
        "⏎⏎  ⏎ => ''",
      })
  void readsHeadingsFencesAndTextBlocks(String markdown, String kinds) {
    String text = markdown.replace('⏎', '\n');

    String read =
        MarkdownBlocks.of(text).stream()
            .map(MarkdownBlocksTest::name)
            .collect(Collectors.joining(" "));

    assertThat(read).isEqualTo(kinds.equals("''") ? "" : kinds);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '"',
      value = {
        "text  ⏎⏎```⏎x  ⏎```   => text|```⏎x  ⏎```",
        "```⏎never closed⏎⏎   => ```⏎never closed"
      })
  void blocksEndAtTheirLastNonBlankCharacter(String markdown, String blocks) {
    String text = markdown.replace('⏎', '\n');

    String read =
        MarkdownBlocks.of(text).stream()
            .map(block -> text.substring(block.start(), block.end()))
            .collect(Collectors.joining("|"));

    assertThat(read).isEqualTo(blocks.replace('⏎', '\n'));
  }

  private static String name(Block block) {
    return block.kind() == MarkdownBlocks.Kind.HEADING ? "H" + block.level() : block.kind().name();
  }
}
