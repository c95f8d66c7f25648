package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CollapsedTextTest {

  @ParameterizedTest(name = "cut({0}, {1}) = {2}")
  @CsvSource({
    "abcdef, 3, abc",
    "abc, 3, abc",
    "abc, 5, abc",
    "abc, 0, ''",
    "a\uD83D\uDE00b, 2, a",
    "a\uD83D\uDE00b, 3, a\uD83D\uDE00"
  })
  void cutsTextWithoutSplittingASurrogatePair(String text, int max, String expected) {
    assertThat(CollapsedText.cut(text, max)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{0}] -> [{1}]")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a b             | a b
          '  a   b  '     | a b
          'a\\t\\nb\\r\\n' | a b
          a\\u00a0b       | a b
          ''              | ''
          '   '           | ''
          """)
  void collapsesWhitespace(String text, String expected) {
    String input =
        text.replace("\\t", "\t")
            .replace("\\n", "\n")
            .replace("\\r", "\r")
            .replace("\\u00a0", "\u00a0");

    assertThat(CollapsedText.collapseWhitespace(input)).isEqualTo(expected);
  }

  @Test
  void cutsUtf8TextInCharactersKeepingTheBytesWhenNothingIsCut() {
    byte[] utf8 = "h\u00e9llo".getBytes(StandardCharsets.UTF_8); // 6 bytes, 5 characters

    assertThat(CollapsedText.cutUtf8(utf8, 6)).isSameAs(utf8);
    assertThat(CollapsedText.cutUtf8(utf8, 5)).isSameAs(utf8);
    assertThat(CollapsedText.cutUtf8(utf8, 2))
        .isEqualTo("h\u00e9".getBytes(StandardCharsets.UTF_8));
  }
}
