package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageTextTest {

  /** What the parser took before: jsoup's text, whitespace-collapsed. */
  private static String expected(Element element) {
    return PageParser.collapseWhitespace(element.text());
  }

  private static Document parse(String html) {
    return Jsoup.parse(html, "http://a.example/");
  }

  @ParameterizedTest(name = "{0} -> [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "<p>One</p><p>Two</p>                                   | One Two",
        "<div>One</div>Two <b>three</b>                          | One Two three",
        "a<br>b<br/>c                                            | a b c",
        "<span>in</span><span>line</span>                        | inline",
        "&#9; lead   and&#9;&#9;trail &#10;                           | lead and trail",
        "<pre>  keep&#10;&#10;  me  </pre> after                 | keep me after",
        "<table><tr><td>a</td><td>b</td></tr></table>            | a b",
        "a&nbsp;&nbsp;b &#x200B;c&shy;d                          | a b cd",
        "<ul><li>x<li>y</ul>z                                    | x y z",
        "<svg><![CDATA[ raw  cdata ]]></svg>tail                 | raw cdata tail",
        "<script>var x</script><style>p{}</style>seen            | seen",
        "<p></p><p> </p><p>only</p>                              | only",
      })
  void isJsoupsTextCollapsed(String html, String text) {
    Element body = parse(html).body();

    assertThat(PageText.of(body)).isEqualTo(text).isEqualTo(expected(body));
  }

  @Test
  void dropsControlCharactersAtEitherEndAsTrimDoesButKeepsThemBehindANoBreakSpaceInPre() {
    for (String html :
        List.of(
            "\u0001 text \u0002",
            "<pre>\u00A0\u0001x\u0001\u00A0</pre>",
            "<pre>\u0001\u00A0x\u00A0\u0001</pre>",
            "a\u000Bb",
            "<pre>\u000B</pre>x")) {
      Element body = parse(html).body();
      assertThat(PageText.of(body)).as(html).isEqualTo(expected(body));
    }
  }

  @Test
  void equalsJsoupsCollapsedTextOnEveryElementOfThePageFixtures() throws IOException {
    List<String> fixtures =
        List.of(
            "bom-contradicting-meta.html",
            "empty.html",
            "googlebot-only-noindex.html",
            "malformed.html",
            "meta-windows-1252.html",
            "own-agent-noindex.html",
            "relative-canonical.html");
    for (String fixture : fixtures) {
      try (InputStream in = PageTextTest.class.getResourceAsStream("/pages/" + fixture)) {
        assertThat(in).as(fixture).isNotNull();
        Document document =
            Jsoup.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "http://a.example/");
        for (Element element : document.getAllElements()) {
          assertThat(PageText.of(element))
              .as(fixture + " " + element.cssSelector())
              .isEqualTo(expected(element));
        }
      }
    }
  }

  private static final String[] TAGS = {
    "div",
    "p",
    "span",
    "a",
    "b",
    "em",
    "br",
    "pre",
    "textarea",
    "td",
    "tr",
    "table",
    "li",
    "ul",
    "h1",
    "code",
    "svg",
    "math",
    "sup",
    "button",
    "label",
    "select",
    "option",
    "ruby",
    "rt",
    "img",
    "section",
    "nav",
    "address",
    "listing",
    "plaintext",
    "title",
  };

  private static final String[] TEXTS = {
    "word",
    "é",
    "€",
    "\uD83D\uDE00",
    " ",
    "  ",
    "\n",
    "\t",
    "\r\n",
    "\f",
    "\u000B",
    "\u00A0",
    "&nbsp;",
    "\u200B",
    "\u00AD",
    "&shy;",
    "\u0001",
    "\u001F",
    "<![CDATA[ c d ]]>",
    "<!-- note -->",
    "&#11;",
    "x\u2003y",
  };

  /**
   * Random documents over tags with every kind of text boundary and every character jsoup or the
   * parser treats specially.
   */
  @Test
  void equalsJsoupsCollapsedTextOnGeneratedDocuments() {
    Random random = new Random(20261123);
    for (int n = 0; n < 3_000; n++) {
      String html = randomHtml(random, 0);
      Document document = parse(html);
      for (Element element : document.getAllElements()) {
        assertThat(PageText.of(element))
            .as("element %s of %s", element.cssSelector(), html)
            .isEqualTo(expected(element));
      }
    }
  }

  private static String randomHtml(Random random, int depth) {
    StringBuilder html = new StringBuilder();
    int parts = 1 + random.nextInt(5);
    for (int i = 0; i < parts; i++) {
      if (depth < 5 && random.nextInt(3) == 0) {
        String tag = TAGS[random.nextInt(TAGS.length)];
        html.append('<').append(tag).append('>').append(randomHtml(random, depth + 1));
        if (random.nextInt(4) != 0) {
          html.append("</").append(tag).append('>'); // sometimes left open, as pages do
        }
      } else {
        html.append(TEXTS[random.nextInt(TEXTS.length)]);
      }
    }
    return html.toString();
  }
}
