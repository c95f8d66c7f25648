package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainContentTest {

  private static final String ARTICLE_PAGE =
      "<html><head><title>T</title></head><body>"
          + "<header><nav><a href=/>Home</a> <a href=/about>About</a></nav><p>Site banner</p></header>"
          + "<main><article><header><h1>Heading</h1></header><p>Body text.</p>"
          + "<aside>Related</aside><footer>By the author</footer></article></main>"
          + "<aside>Ads here</aside>"
          + "<footer><p>Copyright %s</p></footer></body></html>";

  private static final PageParser PARSER = PageParser.withDefaults();

  @Test
  void dropsTheBoilerplateAroundAMainContentByDefault() {
    ParseResult.Parsed parsed = parse(page("2024"), MainContent.DEFAULT);

    // the article's own header and footer are content; the page's, its navigation and asides not
    assertThat(parsed.text()).isEqualTo("Heading Body text. By the author");
  }

  @Test
  void aChangedFooterIsNoChangedPage() {
    ParseResult.Parsed before = parse(page("2024"), MainContent.DEFAULT);
    ParseResult.Parsed after = parse(page("2025"), MainContent.DEFAULT);

    assertThat(after.contentChecksum()).isEqualTo(before.contentChecksum());
  }

  @Test
  void aChangedFooterChangesAPageWhoseWholeTextIsKept() {
    ParseResult.Parsed before = parse(page("2024"), MainContent.WHOLE_PAGE);
    ParseResult.Parsed after = parse(page("2025"), MainContent.WHOLE_PAGE);

    assertThat(after.contentChecksum()).isNotEqualTo(before.contentChecksum());
    assertThat(before.text()).contains("Home", "Site banner", "Ads here", "Copyright 2024");
  }

  @Test
  void linksAreReadFromTheWholePageBeforeAnythingIsDropped() {
    ParseResult.Parsed parsed = parse(page("2024"), MainContent.DEFAULT);

    assertThat(parsed.links())
        .extracting(Link::url)
        .containsExactly("https://example.org/", "https://example.org/about");
  }

  @Test
  void keepsEveryThingOfAPageWithoutMainOrArticle() {
    ParseResult.Parsed parsed =
        parse(
            "<body><header>Banner</header><nav>Menu</nav><div>Text</div><footer>Foot</footer></body>",
            MainContent.DEFAULT);

    assertThat(parsed.text()).isEqualTo("Banner Menu Text Foot");
  }

  @ParameterizedTest(name = "keep \"{0}\" drop \"{1}\" -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''|auto|Heading Body text. By the author",
        "''|none|Home About Site banner Heading Body text. Related By the author Ads here Copyright 2024",
        "''|aside, footer|Home About Site banner Heading Body text.",
        "article p|auto|Body text.",
        "h1, p|none|Site banner Heading Body text. Copyright 2024",
        "#nowhere|auto|Heading Body text. By the author",
        "'[unclosed'|auto|Heading Body text. By the author",
        "''|'[unclosed'|Heading Body text. By the author",
      })
  void keepsAndDropsAsTheOptionsSay(String keep, String drop, String text) {
    assertThat(parse(page("2024"), MainContent.of(keep, drop)).text()).isEqualTo(text);
  }

  @Test
  void theOptionsTravelAsRequestOptions() {
    ParseOptions options =
        ParseOptions.of(Map.of("content-keep", "article", "content-drop", "none"));

    assertThat(options.mainContent())
        .isEqualTo(new MainContent(Optional.of("article"), Optional.empty(), false));
    assertThat(ParseOptions.of(Map.of()).mainContent()).isEqualTo(MainContent.DEFAULT);
  }

  private static String page(String year) {
    return ARTICLE_PAGE.replace("%s", year);
  }

  private static ParseResult.Parsed parse(String html, MainContent content) {
    ParseOptions options =
        new ParseOptions(
            true,
            Optional.empty(),
            List.of(),
            true,
            true,
            Optional.empty(),
            content,
            true,
            true,
            true,
            false);
    return (ParseResult.Parsed)
        PARSER.parse(
            new Page(
                "https://example.org/page",
                Map.of(),
                html.getBytes(StandardCharsets.UTF_8),
                Optional.of("text/html"),
                Optional.of("UTF-8")),
            options);
  }
}
