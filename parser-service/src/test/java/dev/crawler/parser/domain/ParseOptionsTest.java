package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParseOptionsTest {

  private final PageParser parser = PageParser.withDefaults();

  @ParameterizedTest(name = "{0} names {1}, scope {2} -> canonical {3}")
  @CsvSource({
    "https://www.example.com/a, https://shop.example.com/b, domain, https://shop.example.com/b",
    "https://www.example.com/a, https://example.org/b,      domain, ",
    "https://www.example.com/a, https://example.org/b,      any,    https://example.org/b",
    "https://a.blogspot.com/p,  https://b.blogspot.com/p,   domain, ",
  })
  void acceptsACanonicalWithinTheRegisteredDomainUnlessToldOtherwise(
      String url, String canonical, String scope, String expected) {
    Page page =
        new Page(
            url,
            Map.of(),
            html("<link rel=\"canonical\" href=\"" + canonical + "\">"),
            Optional.of("text/html"),
            Optional.empty());

    ParseResult.Parsed parsed =
        (ParseResult.Parsed) parser.parse(page, ParseOptions.of(Map.of("canonical-scope", scope)));

    assertThat(parsed.canonicalUrl()).isEqualTo(Optional.ofNullable(expected));
  }

  @Test
  void leavesTheIgnoredPartsOutOfTheChecksumButNotOutOfTheText() {
    ParseOptions ignoreFooter = ParseOptions.of(Map.of("checksum-ignore", "footer, .clock"));
    Page morning =
        page("<p>story</p><footer>rendered at 09:00</footer><span class=\"clock\">9:00</span>");
    Page evening =
        page("<p>story</p><footer>rendered at 21:00</footer><span class=\"clock\">21:00</span>");

    ParseResult.Parsed first = (ParseResult.Parsed) parser.parse(morning, ignoreFooter);
    ParseResult.Parsed second = (ParseResult.Parsed) parser.parse(evening, ignoreFooter);

    assertThat(first.contentChecksum()).isEqualTo(second.contentChecksum());
    assertThat(first.text()).contains("rendered at 09:00");
    assertThat(((ParseResult.Parsed) parser.parse(morning)).contentChecksum())
        .isNotEqualTo(((ParseResult.Parsed) parser.parse(evening)).contentChecksum());
  }

  @Test
  void readsTheOptionsAndKeepsDefaultsForUnusableOnes() {
    assertThat(ParseOptions.of(Map.of())).isEqualTo(ParseOptions.DEFAULTS);
    assertThat(ParseOptions.of(Map.of("checksum-ignore", "div[[[")))
        .as("not a selector")
        .isEqualTo(ParseOptions.DEFAULTS);
    assertThat(
            ParseOptions.of(Map.of("metadata-checksum", "ETag, Last-Modified"))
                .metadataChecksumHeaders())
        .isEqualTo(List.of("etag", "last-modified"));
  }

  private static Page page(String body) {
    return new Page(
        "https://www.example.com/news",
        Map.of(),
        html(body),
        Optional.of("text/html"),
        Optional.empty());
  }

  private static byte[] html(String inner) {
    return ("<html><head><title>t</title></head><body>" + inner + "</body></html>")
        .getBytes(StandardCharsets.UTF_8);
  }
}
