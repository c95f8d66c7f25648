package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.committer.domain.MarkdownBlocks.Fence;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MarkdownTextTest {

  /** In the table, ⏎ stands for a line feed and ⇥ for a tab. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '"',
      value = {
        "plain words, nothing to strip => plain words, nothing to strip",
        "# Title ## => Title",
        "### Title \\# => Title #",
        "**bold**, *em*, __strong__, _em_, ~~gone~~ => bold, em, strong, em, gone",
        "snake_case stays, \\_escaped\\_ too => snake_case stays, _escaped_ too",
        "2 * 3 and a _ b => 2 * 3 and a _ b",
        "[the guide](https://docs.example/guide) says => the guide says",
        "[a (b)](https://x.example/a_(b)) after => a (b) after",
        "[outer ![img](a.png)](https://x.example/) => outer img",
        "![alt text](https://x.example/i.png) => alt text",
        "\\[not a link\\](x) => [not a link](x)",
        "[no destination] stays => [no destination] stays",
        "the [WHATWG URL Standard][] and [Examples][ex] => the WHATWG URL Standard and Examples",
        "para⏎⏎[ex]: https://x.example/⏎[WHATWG URL Standard]: https://url.spec.whatwg.org/ => para",
        "run `crawler --help` now => run crawler --help now",
        "``code with ` tick`` => code with ` tick",
        "`a*b_c [x](y)` => a*b_c [x](y)",
        "a \\` b `c` => a ` b c",
        "unclosed ` tick => unclosed ` tick",
        "line one\\⏎line two => line one⏎line two",
        "> quoted⏎> more => quoted⏎more",
        "> ## Quoted heading⏎> text => Quoted heading⏎text",
        "- one⏎- two⏎  - nested⏎1. three => one⏎two⏎nested⏎1. three",
        "| a | b |⏎| --- | :-: |⏎| 1 | x \\| y | => a⇥b⏎1⇥x | y",
        "a | b⏎--- | ---⏎1 | 2 => a⇥b⏎1⇥2",
        "```java⏎int a = 1; // *not* emphasis⏎```⏎⏎after => int a = 1; // *not* emphasis⏎⏎after",
        "~~~⏎# not a heading⏎⏎  indented⏎~~~ => # not a heading⏎⏎  indented",
        "- item:⏎  ```sh⏎  ls -l⏎  ```⏎- next => item:⏎ls -l⏎next",
        "> ```⏎> quoted code⏎> ``` => quoted code",
        "para⏎⏎⏎---⏎⏎next => para⏎⏎next",
        "*emphasis* first => emphasis first",
        "a & b < c => a & b < c",
      })
  void stripsTheSyntaxAndKeepsTheWords(String markdown, String text) {
    assertThat(MarkdownText.of(unfold(markdown), null)).isEqualTo(unfold(text));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '"',
      value = {
        "x = 1⏎# comment⏎```⏎after *em* => x = 1⏎# comment⏎after em",
        "# still code => # still code",
      })
  void readsAPieceThatStartsInsideACodeBlockAsCode(String markdown, String text) {
    Fence fence = new Fence('`', 3, 0, 0);

    assertThat(MarkdownText.of(unfold(markdown), fence)).isEqualTo(unfold(text));
  }

  private static String unfold(String row) {
    return row.replace('⏎', '\n').replace('⇥', '\t');
  }
}
