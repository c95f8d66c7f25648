package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.UrlKind;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageParserTest {

  private static final String URL = "http://a.example/dir/page.html";
  private final PageParser parser = PageParser.withDefaults();

  @ParameterizedTest(name = "{0} -> {1} {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<a href=\"other.html\">Other</a>                          | http://a.example/dir/other.html | LINK",
        "<a href=\"/root\">x</a>                                   | http://a.example/root            | LINK",
        "<a href=\"../up\">x</a>                                   | http://a.example/up              | LINK",
        "<a href=\"http://B.example:80/x#frag\">x</a>              | http://b.example/x               | LINK",
        "<map><area href=\"/area\"></map>                          | http://a.example/area            | LINK",
        "<iframe src=\"/framed\"></iframe>                         | http://a.example/framed          | FRAME",
        "<base href=\"http://a.example/base/\"><a href=\"rel\">x</a> | http://a.example/base/rel       | LINK",
      })
  void extractsAndResolvesLinks(String html, String expected, UrlKind kind) {
    ParseResult.Parsed parsed = html("<html><body>" + html + "</body></html>");

    assertThat(parsed.links()).extracting(Link::url, Link::kind).containsExactly(org.assertj.core.groups.Tuple.tuple(expected, kind));
  }

  @Test
  void findsFramesOfAFrameset() {
    ParseResult.Parsed parsed = html("<html><head><title>F</title></head><frameset><frame src=\"a\"><frame src=\"/b\"></frameset></html>");

    assertThat(parsed.links()).extracting(Link::url).containsExactly("http://a.example/dir/a", "http://a.example/b");
    assertThat(parsed.links()).extracting(Link::kind).containsOnly(UrlKind.FRAME);
    assertThat(parsed.title()).contains("F");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "<img src=\"/logo.png\">",
        "<a href=\"mailto:x@example.org\">mail</a>",
        "<a href=\"javascript:void(0)\">js</a>",
        "<a href=\"ftp://a.example/file\">ftp</a>",
        "<a href=\"http://exa mple.com:99999/\">bad</a>",
        "<a name=\"anchor\">no href</a>",
        "<script src=\"/app.js\"></script><link rel=\"stylesheet\" href=\"/s.css\">",
      })
  void ignoresWhatIsNotACrawlableLink(String html) {
    assertThat(html("<html><body>" + html + "</body></html>").links()).isEmpty();
  }

  @Test
  void keepsTheFirstOfDuplicateLinksWithItsAnchor() {
    ParseResult.Parsed parsed = html("<a href=\"/x\">First</a><a href=\"/x#y\">Second</a><a href=\"/z\"> </a>");

    assertThat(parsed.links()).extracting(Link::url, Link::anchor)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("http://a.example/x", Optional.of("First")),
            org.assertj.core.groups.Tuple.tuple("http://a.example/z", Optional.empty()));
    assertThat(parsed.outlinkCount()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0} / {1} -> noindex {2}, nofollow {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "index, follow       |                      | false | false",
        "noindex             |                      | true  | false",
        "NOFOLLOW            |                      | false | true",
        "noindex, nofollow   |                      | true  | true",
        "none                |                      | true  | true",
        "                    | noindex              | true  | false",
        "                    | googlebot: nofollow  | false | true",
        "noindex             | nofollow             | true  | true",
      })
  void readsRobotsDirectivesFromMetaAndHeader(String meta, String header, boolean noindex, boolean nofollow) {
    String head = meta == null ? "" : "<meta name=\"robots\" content=\"" + meta + "\">";
    Map<String, String> headers = header == null ? Map.of() : Map.of("x-robots-tag", header);
    ParseResult.Parsed parsed = (ParseResult.Parsed) parser.parse(page("<html><head>" + head + "</head><body><a href=\"/l\">l</a></body></html>", headers, "text/html"));

    assertThat(parsed.noindex()).isEqualTo(noindex);
    assertThat(parsed.nofollow()).isEqualTo(nofollow);
    assertThat(parsed.linksToFollow(true)).hasSize(nofollow ? 0 : 1);
    assertThat(parsed.linksToFollow(false)).as("rogue: robots meta not obeyed").hasSize(1);
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<link rel=\"canonical\" href=\"/canonical\"> |                                         | http://a.example/canonical      | true",
        "<link rel=\"canonical\" href=\"page.html\">  |                                         | http://a.example/dir/page.html  | false",
        "                                            | <http://a.example/c>; rel=\"canonical\" | http://a.example/c              | true",
        "                                            | </c2>; rel=canonical                    | http://a.example/c2             | true",
        "                                            | </next>; rel=\"next\"                   |                                 | false",
      })
  void findsTheCanonicalInTheTagOrTheLinkHeader(String tag, String header, String canonical, boolean isNonCanonical) {
    Map<String, String> headers = header == null ? Map.of() : Map.of("Link", header);
    ParseResult.Parsed parsed = (ParseResult.Parsed) parser.parse(page("<html><head>" + (tag == null ? "" : tag) + "</head><body>x</body></html>", headers, "text/html"));

    assertThat(parsed.canonicalUrl()).isEqualTo(Optional.ofNullable(canonical));
    assertThat(parsed.isNonCanonical(URL)).isEqualTo(isNonCanonical);
  }

  @Test
  void readsTitleDescriptionLanguageAndText() {
    ParseResult.Parsed parsed =
        html("<html lang=\"fr\"><head><title> Le titre </title><meta name=\"description\" content=\"Une page\"></head><body><h1>Bonjour</h1>\n<p>le   monde</p></body></html>");

    assertThat(parsed.title()).contains("Le titre");
    assertThat(parsed.description()).contains("Une page");
    assertThat(parsed.language()).contains("fr");
    assertThat(parsed.text()).isEqualTo("Bonjour le monde");
  }

  @Test
  void decodesWithTheDeclaredOrTheMetaCharset() {
    byte[] latin = "<html><head><meta charset=\"iso-8859-1\"><title>café</title></head></html>".getBytes(Charset.forName("ISO-8859-1"));
    ParseResult.Parsed fromMeta = (ParseResult.Parsed) parser.parse(new Page(URL, Map.of(), latin, Optional.of("text/html"), Optional.empty()));
    ParseResult.Parsed fromHeader = (ParseResult.Parsed) parser.parse(new Page(URL, Map.of(), latin, Optional.of("text/html"), Optional.of("ISO-8859-1")));

    assertThat(fromMeta.title()).contains("café");
    assertThat(fromHeader.title()).contains("café");
  }

  @Test
  void theChecksumIgnoresWhitespaceButNotWords() {
    String a = html("<title>T</title><p>one   two</p>").contentChecksum();
    String b = html("<title>T</title>\n<div>one\ntwo</div>").contentChecksum();
    String c = html("<title>T</title><p>one three</p>").contentChecksum();

    assertThat(a).hasSize(64).isEqualTo(b).isNotEqualTo(c);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "image/png        | content type image/png is not imported",
        "application/pdf  | content type application/pdf is not imported",
      })
  void rejectsTypesThatAreNotImported(String type, String detail) {
    assertThat(parser.parse(page("PNG", Map.of(), type))).isEqualTo(new ParseResult.Rejected(detail));
  }

  @Test
  void rejectsAnEmptyBodyAndSniffsAMissingContentType() {
    assertThat(parser.parse(page("", Map.of(), "text/html"))).isEqualTo(new ParseResult.Rejected("empty body"));
    assertThat(parser.parse(new Page(URL, Map.of(), "<!DOCTYPE html><title>x</title>".getBytes(StandardCharsets.UTF_8), Optional.empty(), Optional.empty())))
        .isInstanceOf(ParseResult.Parsed.class);
    assertThat(parser.parse(new Page(URL, Map.of(), new byte[] {1, 2, 3}, Optional.empty(), Optional.empty()))).isInstanceOf(ParseResult.Rejected.class);
  }

  @Test
  void importsPlainTextAndXmlWithoutLinks() {
    ParseResult.Parsed text = (ParseResult.Parsed) parser.parse(page("hello\n  world <a href=\"/x\">", Map.of(), "text/plain"));
    ParseResult.Parsed xml = (ParseResult.Parsed) parser.parse(page("<?xml version=\"1.0\"?><doc><a href=\"/x\">inner</a></doc>", Map.of(), "application/xml"));

    assertThat(text.text()).isEqualTo("hello world <a href=\"/x\">");
    assertThat(text.links()).isEmpty();
    assertThat(xml.text()).isEqualTo("inner");
    assertThat(xml.links()).isEmpty();
  }

  @Test
  void survivesBrokenHtml() {
    ParseResult result = parser.parse(page("<html><body><a href=\"/x\"<<<<div></p></td><title>", Map.of(), "text/html"));

    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
  }

  private ParseResult.Parsed html(String html) {
    return (ParseResult.Parsed) parser.parse(page(html, Map.of(), "text/html"));
  }

  private static Page page(String body, Map<String, String> headers, String type) {
    return new Page(URL, headers, body.getBytes(StandardCharsets.UTF_8), Optional.of(type), Optional.of("UTF-8"));
  }
}
