package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParserSettingsTest {

  @Test
  void importsPagesAndTheCommonFileFormatsByDefault() {
    assertThat(ParserSettings.DEFAULTS.importedContentTypes())
        .contains("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")
        .contains(
            "application/pdf",
            "application/msword",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.oasis.opendocument.text",
            "application/rtf",
            "application/epub+zip")
        .hasSize(18);
    assertThat(ParserSettings.DEFAULTS.maxTextChars()).isEqualTo(1_000_000);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "text/html, false",
    "application/xhtml+xml, false",
    "text/plain, false",
    "text/csv, false",
    "application/xml, false",
    "application/rss+xml, false",
    "text/rtf, true",
    "application/rtf, true",
    "application/pdf, true",
    "application/epub+zip, true",
    "application/vnd.oasis.opendocument.text, true",
    "image/png, true",
  })
  void readsPagesItselfAndFilesThroughTheImporter(String mediaType, boolean isFile) {
    assertThat(ParserSettings.isReadAsFile(mediaType)).isEqualTo(isFile);
  }

  @Test
  void comparesMediaTypesLowerCase() {
    ParserSettings settings = new ParserSettings(Set.of(" Text/HTML ", "application/JSON"), 10, 0);

    assertThat(settings.importedContentTypes())
        .containsExactlyInAnyOrder("text/html", "application/json");
    assertThat(settings.isImported("text/html")).isTrue();
    assertThat(settings.isImported("text/plain")).isFalse();
  }

  @ParameterizedTest(name = "[{0}] is a media type: {1}")
  @CsvSource({
    "text/html, true",
    "application/xhtml+xml, true",
    "html, false",
    "text/, false",
    "/html, false",
    "'text/html; charset=utf-8', false",
    "a/b/c, false",
    "'', false"
  })
  void knowsAMediaType(String text, boolean isMediaType) {
    assertThat(ParserSettings.isMediaType(text)).isEqualTo(isMediaType);
  }

  @Test
  void refusesWhatCannotBeASetting() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ParserSettings(Set.of("html"), 10, 0))
        .withMessageContaining("'html'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ParserSettings(Set.of(), -1, 0))
        .withMessageContaining("maxTextChars");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ParserSettings(Set.of(), 0, -1))
        .withMessageContaining("recentLinks");
  }
}
