package dev.crawler.parser.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;
import org.jspecify.annotations.Nullable;

/**
 * What the parser reads from an HTML document's elements, gathered in one walk over the tree
 * (rather than one walk per CSS query): the link elements, the robots, description and publish-date
 * {@code meta} tags, the canonical {@code link}, JSON-LD scripts, the first {@code <time
 * datetime>}, the root's {@code lang}, and what {@link MainContent} needs (the page's {@code nav},
 * {@code aside}, {@code header} and {@code footer}; whether it has a {@code main} or an {@code
 * article}). Element and attribute names are matched case-insensitively, as HTML does. Not
 * thread-safe: one per document.
 */
final class HtmlFacts implements NodeVisitor {

  /**
   * The elements links are read from, in document order: {@code a[href]}, {@code area[href]},
   * {@code frame[src]} and {@code iframe[src]}.
   */
  final List<Element> linkElements = new ArrayList<>();

  RobotsMeta robots = RobotsMeta.NONE;
  @Nullable String description;
  @Nullable String author;
  @Nullable String language;

  /**
   * The first {@code <link rel=canonical href>}, resolved against the base; may be empty, or of a
   * scheme other than http.
   */
  @Nullable String canonicalHref;

  @Nullable String articlePublishedTime;
  final List<Element> jsonLdScripts = new ArrayList<>(0);
  @Nullable String timeDatetime;

  /** {@code nav}, {@code aside}, {@code header} and {@code footer} elements, in document order. */
  final List<Element> boilerplate = new ArrayList<>(4);

  /** Whether the page has a {@code main} or an {@code article} element. */
  boolean hasMainContent;

  private final String robotsAgent;

  private HtmlFacts(String robotsAgent) {
    this.robotsAgent = robotsAgent;
  }

  static HtmlFacts of(Document document, String robotsAgent) {
    HtmlFacts facts = new HtmlFacts(robotsAgent);
    document.traverse(facts);
    return facts;
  }

  @Override
  public void head(Node node, int depth) {
    if (!(node instanceof Element element)) {
      return;
    }
    switch (element.normalName()) {
      case "a", "area" -> {
        if (element.hasAttr("href")) {
          linkElements.add(element);
        }
      }
      case "frame", "iframe" -> {
        if (element.hasAttr("src")) {
          linkElements.add(element);
        }
      }
      case "meta" -> meta(element);
      case "link" -> {
        if (canonicalHref == null
            && element.hasAttr("href")
            && hasToken(element.attr("rel"), "canonical")) {
          canonicalHref = element.absUrl("href");
        }
      }
      case "script" -> {
        if (element.attr("type").strip().equalsIgnoreCase("application/ld+json")) {
          jsonLdScripts.add(element);
        }
      }
      case "time" -> {
        if (timeDatetime == null && element.hasAttr("datetime")) {
          timeDatetime = element.attr("datetime");
        }
      }
      case "nav", "aside", "header", "footer" -> boilerplate.add(element);
      case "main", "article" -> hasMainContent = true;
      case "html" -> {
        if (language == null) {
          language = nonBlank(element.attr("lang"));
        }
      }
      default -> {
        // not an element the parser reads
      }
    }
  }

  private void meta(Element meta) {
    String name = meta.attr("name").strip();
    if (RobotsMeta.isAddressedTo(name, robotsAgent)) {
      robots = robots.and(RobotsMeta.parse(meta.attr("content")));
    } else if (name.equalsIgnoreCase("description")) {
      if (description == null) {
        description = nonBlank(meta.attr("content"));
      }
    } else if (name.equalsIgnoreCase("author")) {
      if (author == null) {
        author = nonBlank(meta.attr("content"));
      }
    }
    if (articlePublishedTime == null
        && (name.equalsIgnoreCase("article:published_time")
            || meta.attr("property").strip().equalsIgnoreCase("article:published_time"))) {
      articlePublishedTime = nonBlank(meta.attr("content"));
    }
  }

  /** The publish date, from the first of the places publishers put it ({@link PublishDates}). */
  Optional<Instant> publishedAt() {
    return PublishDates.first(
        Optional.ofNullable(articlePublishedTime),
        jsonLdScripts,
        Optional.ofNullable(timeDatetime));
  }

  /**
   * Whether a space-separated token list ({@code rel="canonical"}) has the token, ignoring case.
   */
  static boolean hasToken(String list, String token) {
    int length = list.length();
    int start = 0;
    while (start < length) {
      while (start < length && Character.isWhitespace(list.charAt(start))) {
        start++;
      }
      int end = start;
      while (end < length && !Character.isWhitespace(list.charAt(end))) {
        end++;
      }
      if (end - start == token.length()
          && list.regionMatches(true, start, token, 0, token.length())) {
        return true;
      }
      start = end;
    }
    return false;
  }

  private static @Nullable String nonBlank(String value) {
    String stripped = value.strip();
    return stripped.isEmpty() ? null : stripped;
  }
}
