package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageRenderTest {

  @ParameterizedTest
  @CsvSource({
    "abcdef, 4, abcd",
    "abc, 10, abc",
    "é, 1, ''",
    "aé, 3, aé",
    "aéb, 2, a",
    "€x, 3, €",
  })
  void cutsTextToWholeCharactersWithinAByteLimit(String text, int maxBytes, String expected) {
    assertThat(PageRender.cutToBytes(text, maxBytes)).isEqualTo(expected);
  }

  @Test
  void aSupplementaryCharacterIsNeverSplit() {
    String text = "a\uD83D\uDE00b"; // a, an emoji of 4 bytes, b

    assertThat(PageRender.cutToBytes(text, 4)).isEqualTo("a");
    assertThat(PageRender.cutToBytes(text, 5)).isEqualTo("a\uD83D\uDE00");
  }

  @Test
  void theDomReadIsBoundedInThePage() {
    assertThat(PageRender.readExpression(1000))
        .contains("h.length > 1000 ? h.substring(0, 1000) : h")
        .contains("XMLSerializer");
  }
}
