package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawler.events.UrlKind;
import dev.crawler.schemas.options.RequestOptions;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageParserTest {

  private static final String URL = "http://a.example/dir/page.html";
  private final PageParser parser = PageParser.withDefaults();

  @ParameterizedTest(name = "{0} -> {1} {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <a href="other.html">Other</a>                                | http://a.example/dir/other.html   | LINK
          <a href="/root">x</a>                                         | http://a.example/root             | LINK
          <a href="../up">x</a>                                         | http://a.example/up               | LINK
          <a href="?q=1">x</a>                                          | http://a.example/dir/page.html?q=1 | LINK
          <a href="//b.example/p">x</a>                                 | http://b.example/p                | LINK
          <a href="http://B.example:80/x#frag">x</a>                    | http://b.example/x                | LINK
          <a href="HTTPS://c.example:443/">x</a>                        | https://c.example/                | LINK
          <A HREF="/upper">x</A>                                        | http://a.example/upper            | LINK
          <a href="  /padded  ">x</a>                                   | http://a.example/padded           | LINK
          <map name="m"><area href="/area" alt="x"></map>               | http://a.example/area             | LINK
          <iframe src="/framed"></iframe>                               | http://a.example/framed           | FRAME
          <base href="http://a.example/base/"><a href="rel">x</a>       | http://a.example/base/rel         | LINK
          <base href="/other/"><a href="rel">x</a>                      | http://a.example/other/rel        | LINK
          <base href="http://cdn.example/"><iframe src="f"></iframe>    | http://cdn.example/f              | FRAME
          """)
  void extractsAndResolvesLinks(String html, String expected, UrlKind kind) {
    ParseResult.Parsed parsed = html("<html><head></head><body>" + html + "</body></html>");

    assertThat(parsed.links())
        .extracting(Link::url, Link::kind)
        .containsExactly(tuple(expected, kind));
    assertThat(parsed.outlinkCount()).isEqualTo(1);
  }

  @Test
  void findsTheFramesOfAFrameset() {
    ParseResult.Parsed parsed =
        html(
            "<html><head><title>F</title></head><frameset><frame src=\"a\"><frame src=\"/b\"></frameset></html>");

    assertThat(parsed.links())
        .extracting(Link::url, Link::kind)
        .containsExactly(
            tuple("http://a.example/dir/a", UrlKind.FRAME),
            tuple("http://a.example/b", UrlKind.FRAME));
    assertThat(parsed.title()).contains("F");
    assertThat(parsed.text()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <img src="/logo.png">
          <a href="mailto:x@example.org">mail</a>
          <a href="javascript:void(0)">js</a>
          <a href="tel:+331234">phone</a>
          <a href="data:text/html,hello">data</a>
          <a href="ftp://a.example/file">ftp</a>
          <a href="http://exa mple.com:99999/">bad port</a>
          <a name="anchor">no href</a>
          <area alt="no href">
          <iframe srcdoc="<p>x</p>"></iframe>
          <script src="/app.js"></script><link rel="stylesheet" href="/s.css">
          <video src="/v.mp4"></video><embed src="/e.swf"><object data="/o.swf"></object>
          <form action="/search"><input type="image" src="/i.png"></form>
          """)
  void ignoresWhatIsNotACrawlableLink(String html) {
    ParseResult.Parsed parsed = html("<html><head></head><body>" + html + "</body></html>");

    assertThat(parsed.links()).isEmpty();
    assertThat(parsed.outlinkCount()).isZero();
  }

  @Test
  void keepsTheFirstOfDuplicateLinksWithItsAnchorAndCountsEveryOccurrence() {
    ParseResult.Parsed parsed =
        html(
            "<a href=\"/x\">First\n  one</a><a href=\"/x#y\">Second</a><iframe src=\"/x\"></iframe><a href=\"/z\"> </a><a href=\"http://A.example/x\">Third</a><a href=\"mailto:x@y\">m</a>");

    assertThat(parsed.links())
        .extracting(Link::url, Link::kind, Link::anchor)
        .containsExactly(
            tuple("http://a.example/x", UrlKind.LINK, Optional.of("First one")),
            tuple("http://a.example/z", UrlKind.LINK, Optional.empty()));
    assertThat(parsed.outlinkCount()).as("crawlable links, repeats included").isEqualTo(5);
  }

  @Test
  void cutsAVeryLongAnchor() {
    String words = "word ".repeat(1000);

    ParseResult.Parsed parsed = html("<a href=\"/x\">" + words + "</a>");

    assertThat(parsed.links().get(0).anchor())
        .hasValueSatisfying(
            anchor ->
                assertThat(anchor).hasSize(Outlinks.MAX_ANCHOR_CHARS).startsWith("word word"));
  }

  @ParameterizedTest(name = "meta {0} / header {1} -> noindex {2}, nofollow {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          index, follow          |                           | false | false
          noindex                |                           | true  | false
          NOFOLLOW               |                           | false | true
          noindex,nofollow       |                           | true  | true
          ' NoIndex , NoFollow ' |                           | true  | true
          none                   |                           | true  | true
          noarchive, nosnippet   |                           | false | false
                                 | noindex                   | true  | false
                                 | NONE                      | true  | true
                                 | googlebot: nofollow       | false | false
                                 | googlebot: noindex, nofollow | false | false
                                 | kafka-crawler: noindex    | true  | false
                                 | Kafka-Crawler: NONE       | true  | true
                                 | max-snippet: 20           | false | false
                                 | unavailable_after: 2030-01-01 | false | false
                                 | noarchive, noindex        | true  | false
          noindex                | nofollow                  | true  | true
          follow                 | index, follow             | false | false
          """)
  void readsRobotsDirectivesFromMetaAndHeader(
      String meta, String header, boolean noindex, boolean nofollow) {
    String head = meta == null ? "" : "<meta name=\"robots\" content=\"" + meta + "\">";
    Map<String, String> headers = header == null ? Map.of() : Map.of("x-robots-tag", header);

    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                page(
                    "<html><head>" + head + "</head><body><a href=\"/l\">l</a></body></html>",
                    headers,
                    "text/html"));

    assertThat(parsed.noindex()).isEqualTo(noindex);
    assertThat(parsed.nofollow()).isEqualTo(nofollow);
    assertThat(parsed.links())
        .as("links are found on a nofollow page too; the caller decides")
        .hasSize(1);
  }

  @ParameterizedTest(name = "<meta name={0} content=noindex> -> noindex {1}")
  @CsvSource({
    "robots, true",
    "ROBOTS, true",
    "kafka-crawler, true",
    "Kafka-Crawler, true",
    "googlebot, false",
    "bingbot, false"
  })
  void obeysRobotsMetaAddressedToEveryCrawlerOrToThisOne(String name, boolean noindex) {
    ParseResult.Parsed parsed =
        html("<html><head><meta name=\"" + name + "\" content=\"noindex\"></head></html>");

    assertThat(parsed.noindex()).isEqualTo(noindex);
  }

  @Test
  void readsRobotsMetaWhateverTheCaseOfItsName() {
    ParseResult.Parsed parsed =
        html(
            "<html><head><META NAME=\"ROBOTS\" CONTENT=\"NOINDEX\"><meta name=\"robots\" content=\"nofollow\"></head></html>");

    assertThat(parsed.noindex()).isTrue();
    assertThat(parsed.nofollow()).as("every robots meta tag counts").isTrue();
  }

  @ParameterizedTest(name = "tag {0}, header {1} -> {2}, non-canonical {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <link rel="canonical" href="/canonical">        |                                           | http://a.example/canonical     | true
          <link rel="CANONICAL" href="http://B.example/c#x"> |                                        | http://b.example/c             | true
          <link rel="canonical" href="page.html">         |                                           | http://a.example/dir/page.html | false
          <link rel="canonical" href="http://A.EXAMPLE:80/dir/page.html#top"> |                       | http://a.example/dir/page.html | false
          <link rel="canonical" href="/tag">              | </header>; rel="canonical"                | http://a.example/tag           | true
          <link rel="canonical" href="javascript:x()">    | </header>; rel="canonical"                | http://a.example/header        | true
          <link rel="alternate" href="/fr">               |                                           |                                | false
                                                          | <http://a.example/c>; rel="canonical"     | http://a.example/c             | true
                                                          | </c2>; rel=canonical                      | http://a.example/c2            | true
                                                          | </next>; rel="next", </c3>; rel="canonical" | http://a.example/c3          | true
                                                          | </next>; rel="next"                       |                                | false
                                                          | </dir/page.html>; rel="canonical"         | http://a.example/dir/page.html | false
          """)
  void findsTheCanonicalInTheTagOrElseTheLinkHeader(
      String tag, String header, String canonical, boolean isNonCanonical) {
    Map<String, String> headers = header == null ? Map.of() : Map.of("link", header);

    ParseOptions anyCanonical = ParseOptions.of(Map.of("canonical-scope", "any"));
    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                page(
                    "<html><head>" + (tag == null ? "" : tag) + "</head><body>x</body></html>",
                    headers,
                    "text/html"),
                anyCanonical);

    assertThat(parsed.canonicalUrl()).isEqualTo(Optional.ofNullable(canonical));
    assertThat(parsed.isNonCanonical()).isEqualTo(isNonCanonical);
  }

  @Test
  void comparesTheCanonicalWithThePageUrlNormalized() {
    Page page =
        new Page(
            "HTTP://A.example:80/dir/page.html",
            Map.of(),
            "<link rel=canonical href=/dir/page.html>".getBytes(StandardCharsets.UTF_8),
            Optional.of("text/html"),
            Optional.empty());

    ParseResult.Parsed parsed = (ParseResult.Parsed) parser.parse(page);

    assertThat(parsed.url()).isEqualTo(URL);
    assertThat(parsed.isNonCanonical()).isFalse();
  }

  @Test
  void readsTitleDescriptionLanguageAndText() {
    ParseResult.Parsed parsed =
        html(
            "<html lang=\"fr\"><head><title> Le\n titre </title><meta name=\"description\" content=\" Une   page \"><script>var x = 1;</script><style>p {}</style></head>"
                + "<body><h1>Bonjour</h1>\n<p>le &nbsp;  monde</p><!-- comment --></body></html>");

    assertThat(parsed.title()).contains("Le titre");
    assertThat(parsed.description()).contains("Une page");
    assertThat(parsed.language().declared()).contains("fr");
    // three words are too few to say which language they are in
    assertThat(parsed.language().detected()).isEmpty();
    assertThat(parsed.language().best()).contains("fr");
    assertThat(parsed.text()).isEqualTo("Bonjour le monde");
    assertThat(parsed.contentType()).isEqualTo("text/html");
    assertThat(parsed.publishedAt()).isEmpty();
  }

  @Test
  void leavesOutWhatThePageDoesNotHave() {
    ParseResult.Parsed parsed =
        html(
            "<html lang=\" \"><head><title>  </title><meta name=\"description\" content=\"\"></head><body></body></html>");

    assertThat(parsed.title()).isEmpty();
    assertThat(parsed.description()).isEmpty();
    assertThat(parsed.language()).isEqualTo(ParseResult.Language.UNKNOWN);
    assertThat(parsed.canonicalUrl()).isEmpty();
    assertThat(parsed.text()).isEmpty();
  }

  @ParameterizedTest(name = "{0} declared {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ISO-8859-1   | ISO-8859-1 | ISO-8859-1
          ISO-8859-1   |            | ISO-8859-1
          windows-1252 | bogus-cs   | windows-1252
          UTF-8        |            | UTF-8
          UTF-8        | utf-8      | UTF-8
          UTF-8        | "UTF-8"    | UTF-8
          """)
  void decodesWithTheDeclaredCharsetElseTheMetaOneElseUtf8(
      String encoding, String declared, String used) {
    String meta = encoding.equals("UTF-8") ? "" : "<meta charset=\"" + encoding + "\">";
    byte[] body =
        ("<html><head>" + meta + "<title>café</title></head><body>crème brûlée</body></html>")
            .getBytes(Charset.forName(encoding));

    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                new Page(
                    URL, Map.of(), body, Optional.of("text/html"), Optional.ofNullable(declared)));

    assertThat(parsed.title()).contains("café");
    assertThat(parsed.text()).isEqualTo("crème brûlée");
    assertThat(parsed.charset()).isEqualTo(used);
  }

  @Test
  void aByteOrderMarkNamesTheEncoding() {
    byte[] utf16 = "\uFEFF<html><title>café</title></html>".getBytes(StandardCharsets.UTF_16BE);

    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                new Page(URL, Map.of(), utf16, Optional.of("text/html"), Optional.empty()));

    assertThat(parsed.title()).contains("café");
  }

  @ParameterizedTest(name = "{0} / {1} -> same checksum: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <title>T</title><p>one two</p>     | <title> T </title>\\n<div>one\\n\\n   two</div>   | true
          <title>T</title><p>one two</p>     | <title>T</title><p>one <b>two</b></p>         | true
          <title>T</title><p>one two</p>     | <title>T</title><p>one two</p><img src=x.png> | true
          <title>T</title><p>one two</p>     | <title>T</title><p>one three</p>              | false
          <title>T</title><p>one two</p>     | <title>U</title><p>one two</p>                | false
          <title>T</title><p>one two</p>     | <title>T one</title><p>two</p>                | false
          <p>a</p>                           | <p>A</p>                                      | false
          """)
  void theChecksumCoversTitleAndTextButNotLayout(String a, String b, boolean same) {
    String first = html(a.replace("\\n", "\n")).contentChecksum();
    String second = html(b.replace("\\n", "\n")).contentChecksum();

    assertThat(first).matches("[0-9a-f]{64}");
    assertThat(first.equals(second)).isEqualTo(same);
  }

  @Test
  void theChecksumIsSha256OfTitleNewlineText() {
    // printf 'T\none two' | sha256sum
    String expected = "430424770f9353b9f58bf1331e4c90feb30791d804957c5a87604486f9703909";

    assertThat(html("<title>T</title><p>one  two</p>").contentChecksum()).isEqualTo(expected);
    assertThat(PageParser.checksum(" T ", "one\n two ")).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} ({1}) -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          image/png                  | PNG                | content type image/png is not imported
          image/tiff                 | II*                | content type image/tiff is not imported
          application/pdf            | %PDF-1.4           | content type application/pdf is a file's, imported by the file importer, not as a page
          application/octet-stream   | <html>             | content type application/octet-stream is not imported
          text/html                  |                    | empty body
          image/png                  |                    | empty body
                                     | \\u0001\\u0002     | no content type, and the body does not start like HTML or XML
                                     | just some words    | no content type, and the body does not start like HTML or XML
          text/html                  | <p>x\\u0000\\u0001 | the body is binary, not text/html (it has NUL bytes)
          text/plain                 | a\\u0000b          | the body is binary, not text/plain (it has NUL bytes)
          """)
  void rejectsWhatIsNotImported(String type, String body, String detail) {
    String content =
        body == null
            ? ""
            : body.replace("\\u0000", "\u0000")
                .replace("\\u0001", "\u0001")
                .replace("\\u0002", "\u0002");

    ParseResult result =
        parser.parse(
            new Page(
                URL,
                Map.of(),
                content.getBytes(StandardCharsets.UTF_8),
                Optional.ofNullable(type),
                Optional.empty()));

    assertThat(result).isEqualTo(new ParseResult.Rejected(detail));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <!DOCTYPE html><title>x</title>                                   | text/html
          '  <html><head><title>x</title>'                                  | text/html
          <?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><title>x</title></html> | text/html
          <?xml version="1.0"?><doc>x</doc>                                 | application/xml
          """)
  void recognizesHtmlAndXmlWhenNoTypeIsDeclared(String body, String type) {
    ParseResult result =
        parser.parse(
            new Page(
                URL,
                Map.of(),
                body.getBytes(StandardCharsets.UTF_8),
                Optional.empty(),
                Optional.empty()));

    assertThat(result)
        .isInstanceOfSatisfying(
            ParseResult.Parsed.class, parsed -> assertThat(parsed.contentType()).isEqualTo(type));
  }

  @Test
  void dropsALinkLongerThanTheLimitAndKeepsTheOthers() {
    String huge = "http://a.example/" + "x".repeat(5_000_000);
    ParseResult result =
        parser.parse(
            page(
                "<a href=\""
                    + huge
                    + "\">huge</a><a href=\"/fine\">fine</a>"
                    + "<link rel=canonical href=\""
                    + huge
                    + "\">",
                Map.of(),
                "text/html"));

    assertThat(result)
        .isInstanceOfSatisfying(
            ParseResult.Parsed.class,
            parsed -> {
              assertThat(parsed.links())
                  .extracting(Link::url)
                  .containsExactly("http://a.example/fine");
              assertThat(parsed.dropped().count()).isEqualTo(1);
              assertThat(parsed.dropped().kept())
                  .singleElement()
                  .satisfies(
                      link -> {
                        assertThat(link.reason()).isEqualTo("URL_TOO_LONG");
                        assertThat(link.start()).hasSize(DroppedLinks.KEPT_CHARS);
                      });
              assertThat(parsed.canonicalUrl()).isEmpty();
            });
  }

  @Test
  void readsTheLinksToTranslationsAndTheNextAndPreviousPagesButNotStylesheetsOrFeeds() {
    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                page(
                    "<html><head>"
                        + "<link rel=\"alternate\" hreflang=\"de\" href=\"/de/\">"
                        + "<link rel=\"next\" href=\"/page/2\">"
                        + "<link rel=\"prev\" href=\"/page/0\">"
                        + "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed\">"
                        + "<link rel=\"stylesheet\" href=\"/s.css\">"
                        + "<link rel=\"alternate stylesheet\" href=\"/t.css\">"
                        + "<link rel=\"icon\" href=\"/favicon.ico\">"
                        + "</head><body><p>text</p></body></html>",
                    Map.of(),
                    "text/html"));

    assertThat(parsed.links())
        .extracting(Link::url)
        .containsExactly(
            "http://a.example/de/", "http://a.example/page/2", "http://a.example/page/0");
  }

  @Test
  void keepsTheFirstLinksOfAPageUpToTheBound() {
    PageParser three =
        new PageParser(
            new ParserSettings(
                ParserSettings.DEFAULTS.importedContentTypes(), 1000, 0, "bot", 8192, 3));
    StringBuilder html = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      html.append("<a href=\"/p").append(i).append("\">p</a><a href=\"/p1\">again</a>");
    }

    ParseResult.Parsed parsed =
        (ParseResult.Parsed) three.parse(page(html.toString(), Map.of(), "text/html"));

    assertThat(parsed.links())
        .extracting(Link::url)
        .containsExactly("http://a.example/p1", "http://a.example/p2", "http://a.example/p3");
    assertThat(parsed.dropped().count()).isEqualTo(7);
    assertThat(parsed.dropped().kept())
        .extracting(DroppedLinks.Link::reason)
        .containsOnly("TOO_MANY_LINKS");
  }

  @Test
  void capsTheTitleAndTheDescription() {
    String title = "t".repeat(50_000);
    String description = "d".repeat(50_000);
    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                page(
                    "<title>"
                        + title
                        + "</title><meta name=description content=\""
                        + description
                        + "\"><p>text</p>",
                    Map.of(),
                    "text/html"));

    assertThat(parsed.title())
        .hasValueSatisfying(t -> assertThat(t).hasSize(PageParser.MAX_TITLE_CHARS));
    assertThat(parsed.description())
        .hasValueSatisfying(
            d -> assertThat(d.length()).isLessThanOrEqualTo(PageParser.MAX_DESCRIPTION_CHARS));
  }

  @Test
  void importsOnlyTheConfiguredTypes() {
    PageParser htmlOnly = new PageParser(new ParserSettings(Set.of("TEXT/HTML"), 100, 0));

    assertThat(htmlOnly.parse(page("<p>x</p>", Map.of(), "text/html")))
        .isInstanceOf(ParseResult.Parsed.class);
    assertThat(htmlOnly.parse(page("x", Map.of(), "text/plain")))
        .isEqualTo(new ParseResult.Rejected("content type text/plain is not imported"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'hello\\n  world <a href="/x">'       | UTF-8      |            | hello world <a href="/x">
          caf\\u00e9                            | ISO-8859-1 | ISO-8859-1 | café
          caf\\u00e9                            | UTF-8      |            | café
          caf\\u00e9                            | UTF-8      | bogus      | café
          \\ufeffBOM first                      | UTF-8      | ISO-8859-1 | BOM first
          """)
  void importsPlainTextDecodedWithItsCharset(
      String body, String encoding, String declared, String text) {
    byte[] bytes =
        body.replace("\\n", "\n")
            .replace("\\u00e9", "é")
            .replace("\\ufeff", "\uFEFF")
            .getBytes(Charset.forName(encoding));

    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                new Page(
                    URL,
                    Map.of(),
                    bytes,
                    Optional.of("text/plain"),
                    Optional.ofNullable(declared)));

    assertThat(parsed.text()).isEqualTo(text);
    assertThat(parsed.links()).isEmpty();
    assertThat(parsed.title()).isEmpty();
    assertThat(parsed.contentChecksum()).isEqualTo(PageParser.checksum("", text));
  }

  @Test
  void importsXmlAsItsTextWithoutLinks() {
    byte[] body =
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><doc><a href=\"/x\">caf\u00e9</a>\n <b>two</b></doc>"
            .getBytes(StandardCharsets.ISO_8859_1);

    ParseResult.Parsed xml =
        (ParseResult.Parsed)
            parser.parse(
                new Page(URL, Map.of(), body, Optional.of("application/xml"), Optional.empty()));

    assertThat(xml.text()).isEqualTo("café two");
    assertThat(xml.charset()).isEqualTo("ISO-8859-1");
    assertThat(xml.links()).isEmpty();
    assertThat(xml.outlinkCount()).isZero();
  }

  @Test
  void honoursTheHeadersCanonicalAndRobotsOnDocumentsWithoutMarkup() {
    Map<String, String> headers =
        Map.of("Link", "</original.txt>; rel=\"canonical\"", "X-Robots-Tag", "noindex");

    ParseResult.Parsed text =
        (ParseResult.Parsed) parser.parse(page("words", headers, "text/plain"));

    assertThat(text.canonicalUrl()).contains("http://a.example/original.txt");
    assertThat(text.isNonCanonical()).isTrue();
    assertThat(text.noindex()).isTrue();
  }

  @Test
  void keepsTheConfiguredTextLengthButChecksumsAllOfIt() {
    PageParser short10 = new PageParser(new ParserSettings(Set.of("text/html"), 10, 0));

    ParseResult.Parsed cut =
        (ParseResult.Parsed)
            short10.parse(
                page("<title>T</title><p>0123456789 and more</p>", Map.of(), "text/html"));
    ParseResult.Parsed other =
        (ParseResult.Parsed)
            short10.parse(
                page("<title>T</title><p>0123456789 and less</p>", Map.of(), "text/html"));

    assertThat(cut.text()).isEqualTo("0123456789");
    assertThat(cut.contentChecksum())
        .isEqualTo(PageParser.checksum("T", "0123456789 and more"))
        .isNotEqualTo(other.contentChecksum());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <meta property="article:published_time" content="2019-09-10T12:00:00+02:00">                              | 2019-09-10T10:00:00Z
          <meta name="article:published_time" content="2019-09-10">                                                 | 2019-09-10T00:00:00Z
          <script type="application/ld+json">{"@type":"NewsArticle","datePublished": "2019-09-09"}</script>          | 2019-09-09T00:00:00Z
          <time datetime="2019-09-08T07:30:00">Sunday</time>                                                       | 2019-09-08T07:30:00Z
          <meta property="article:published_time" content="soon"><time datetime="2019-01-02">x</time>              | 2019-01-02T00:00:00Z
          <time datetime="2019-01-03">x</time><script type="application/ld+json">{"datePublished":"2019-01-01"}</script> | 2019-01-01T00:00:00Z
          <time>no datetime</time>                                                                                 |
          <p>nothing</p>                                                                                           |
          """)
  void findsThePublishDateWherePublishersPutIt(String html, String expected) {
    ParseResult.Parsed parsed = html("<html><head></head><body>" + html + "</body></html>");

    assertThat(parsed.publishedAt()).isEqualTo(Optional.ofNullable(expected).map(Instant::parse));
  }

  @Test
  void survivesBrokenHtml() {
    ParseResult result =
        parser.parse(
            page("<html><body><a href=\"/x\"<<<<div></p></td><title>&#0;", Map.of(), "text/html"));

    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
  }

  private ParseResult.Parsed html(String html) {
    ParseResult result = parser.parse(page(html, Map.of(), "text/html"));
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return (ParseResult.Parsed) result;
  }

  private static Page page(String body, Map<String, String> headers, String type) {
    return new Page(
        URL,
        headers,
        body.getBytes(StandardCharsets.UTF_8),
        Optional.of(type),
        Optional.of("UTF-8"));
  }

  @ParameterizedTest(name = "{0} in {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          rel=next        | <link rel=next href=/article?page=2>                                  | http://a.example/article?page=2
          rel=next        | <a href=/x>x</a><a rel="Next" href=?page=2>more</a>                    | http://a.example/dir/page.html?page=2
          a.next          | <a href=/x>x</a><a class=next href=p2.html>2</a>                      | http://a.example/dir/p2.html
          rel=next        | <a rel=next href=http://b.example/page2>elsewhere</a>                   | ''
          rel=next        | <a rel=next href=#top>itself</a>                                        | ''
          rel=next        | <a href=/page2>no rel</a>                                               | ''
          """)
  void findsTheNextPageOfAMultiPageDocumentOnTheSameOrigin(
      String how, String html, String expected) {
    ParseOptions options = ParseOptions.of(Map.of(RequestOptions.PAGINATION.name(), how));
    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                new Page(
                    URL,
                    Map.of(),
                    html.getBytes(StandardCharsets.UTF_8),
                    Optional.of("text/html"),
                    Optional.empty()),
                options);

    assertThat(parsed.nextPage())
        .isEqualTo(expected.isEmpty() ? Optional.empty() : Optional.of(expected));
  }

  @Test
  void findsNoNextPageWithoutThePaginationOption() {
    ParseResult.Parsed parsed =
        (ParseResult.Parsed)
            parser.parse(
                new Page(
                    URL,
                    Map.of(),
                    "<link rel=next href=/p2>".getBytes(StandardCharsets.UTF_8),
                    Optional.of("text/html"),
                    Optional.empty()));

    assertThat(parsed.nextPage()).isEmpty();
  }
}
