package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The parser's decisions on the fixture pages under {@code src/test/resources/pages/}, served as
 * text/html without a charset. The malformed page's links come in the order an HTML5 parser builds
 * the tree (what follows an unclosed table row is moved before the table, as browsers do), and
 * {@code href=""} is the page itself.
 */
class PageFixturesTest {

  private final PageParser parser = PageParser.withDefaults();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # fixture                    | X-Robots-Tag               | title             | text starts with             | canonical                                        | noindex | nofollow | links
          malformed.html               | -                          | Malformed <b>page | Unclosed paragraph one       | -                                                | false   | false    | http://a.example/one http://a.example/three http://a.example/dir/page.html http://a.example/four http://a.example/dir/two.html
          bom-contradicting-meta.html  | -                          | Café              | naïve résumé                 | -                                                | false   | false    | -
          relative-canonical.html      | -                          | Relative canonical | next                        | http://a.example/articles/Story.html?utm_source=x | false  | false    | http://a.example/section/next.html
          googlebot-only-noindex.html  | -                          | For Google only   | kept                         | -                                                | false   | false    | http://a.example/kept
          own-agent-noindex.html       | -                          | Not for us        | followed                     | -                                                | true    | false    | http://a.example/followed
          own-agent-noindex.html       | googlebot: nofollow        | Not for us        | followed                     | -                                                | true    | false    | http://a.example/followed
          googlebot-only-noindex.html  | kafka-crawler: nofollow    | For Google only   | kept                         | -                                                | false   | true     | http://a.example/kept
          meta-windows-1252.html       | -                          | Quotes “here”     | € 5                          | -                                                | false   | false    | -
          """)
  void parsesTheFixture(
      String fixture,
      String robotsHeader,
      String title,
      String textStart,
      String canonical,
      boolean noindex,
      boolean nofollow,
      String links)
      throws IOException {
    Map<String, String> headers =
        robotsHeader == null ? Map.of() : Map.of("X-Robots-Tag", robotsHeader);
    Page page =
        new Page(
            "http://a.example/dir/page.html",
            headers,
            fixture(fixture),
            Optional.of("text/html"),
            Optional.empty());

    ParseResult.Parsed parsed = (ParseResult.Parsed) parser.parse(page);

    assertThat(parsed.title()).contains(title);
    assertThat(parsed.text()).startsWith(textStart);
    assertThat(parsed.canonicalUrl()).isEqualTo(Optional.ofNullable(canonical));
    assertThat(parsed.noindex()).as("noindex").isEqualTo(noindex);
    assertThat(parsed.nofollow()).as("nofollow").isEqualTo(nofollow);
    assertThat(parsed.links())
        .extracting(Link::url)
        .containsExactly(links == null ? new String[0] : links.split(" "));
  }

  @Test
  void rejectsAnEmptyBodyWithAReason() throws IOException {
    Page page =
        new Page(
            "http://a.example/empty",
            Map.of(),
            fixture("empty.html"),
            Optional.of("text/html"),
            Optional.empty());

    assertThat(parser.parse(page)).isEqualTo(new ParseResult.Rejected("empty body"));
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = PageFixturesTest.class.getResourceAsStream("/pages/" + name)) {
      return Objects.requireNonNull(in, name).readAllBytes();
    }
  }
}
