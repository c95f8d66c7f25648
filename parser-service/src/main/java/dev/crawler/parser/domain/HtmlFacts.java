package dev.crawler.parser.domain;

import dev.crawler.common.usage.MetaTag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
   * {@code frame[src]}, {@code iframe[src]}, and {@code link[href]} naming another page ({@code
   * rel=alternate} of HTML, {@code rel=next}, {@code rel=prev}).
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

  /** The content of the first {@code <meta http-equiv="refresh">}. */
  @Nullable String refresh;

  /**
   * The meta tags that state usage preferences: robots (the generic one and ours) and TDMRep's
   * {@code tdm-reservation} and {@code tdm-policy}.
   */
  final List<MetaTag> usageMetas = new ArrayList<>(0);

  /** Where a script framework would mount its application ({@link RenderingNeed}). */
  final List<Element> applicationRoots = new ArrayList<>(0);

  /** The text of each {@code <noscript>}. */
  final List<String> noscriptTexts = new ArrayList<>(0);

  /** Scripts the page runs (JSON-LD and templates aside). */
  int scripts;

  /** {@code meta} elements with a {@code content} and a {@code property} or {@code name}. */
  final List<Element> namedMetas = new ArrayList<>();

  /** Top-level microdata items: {@code itemscope} elements that are no item's property. */
  final List<Element> itemScopes = new ArrayList<>(0);

  private static final int MAX_NOSCRIPTS = 8;
  private static final int MAX_ROOTS = 8;
  private static final int MAX_USAGE_METAS = 16;

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
    if (element.hasAttr("itemscope") && !element.hasAttr("itemprop")) {
      itemScopes.add(element);
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
        if (!element.hasAttr("href")) {
          return;
        }
        String rel = element.attr("rel");
        if (canonicalHref == null && hasToken(rel, "canonical")) {
          canonicalHref = element.absUrl("href");
        } else if (isPageLink(element, rel)) {
          linkElements.add(element);
        }
      }
      case "script" -> {
        String type = element.attr("type").strip().toLowerCase(Locale.ROOT);
        if (type.equals("application/ld+json")) {
          jsonLdScripts.add(element);
        } else if (type.isEmpty() || type.contains("javascript") || type.equals("module")) {
          scripts++;
        }
      }
      case "noscript" -> {
        if (noscriptTexts.size() < MAX_NOSCRIPTS) {
          noscriptTexts.add(CollapsedText.cut(element.text() + " " + element.data(), 2_000));
        }
      }
      case "time" -> {
        if (timeDatetime == null && element.hasAttr("datetime")) {
          timeDatetime = element.attr("datetime");
        }
      }
      case "nav", "aside", "header", "footer" -> boilerplate.add(element);
      case "main", "article" -> hasMainContent = true;
      case "div", "section", "app-root" -> {
        if (applicationRoots.size() < MAX_ROOTS && RenderingNeed.isApplicationRoot(element)) {
          applicationRoots.add(element);
        }
      }
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
    if (meta.hasAttr("content") && (meta.hasAttr("property") || meta.hasAttr("name"))) {
      namedMetas.add(meta);
    }
    String name = meta.attr("name").strip();
    if (refresh == null && meta.attr("http-equiv").strip().equalsIgnoreCase("refresh")) {
      refresh = meta.attr("content");
    }
    if (usageMetas.size() < MAX_USAGE_METAS
        && (name.equalsIgnoreCase("tdm-reservation")
            || name.equalsIgnoreCase("tdm-policy")
            || RobotsMeta.isAddressedTo(name, robotsAgent))) {
      usageMetas.add(new MetaTag(name, meta.attr("content")));
    }
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
   * Whether a {@code <link>} names another page of the site: a translation or another version
   * ({@code rel=alternate}, of HTML or of no stated type: not a feed), or the next or previous page
   * of a series ({@code rel=next}, {@code rel=prev}). Stylesheets, icons and feeds are not pages.
   */
  private static boolean isPageLink(Element link, String rel) {
    if (hasToken(rel, "next") || hasToken(rel, "prev") || hasToken(rel, "previous")) {
      return true;
    }
    if (!hasToken(rel, "alternate") || hasToken(rel, "stylesheet")) {
      return false;
    }
    String type = link.attr("type").strip().toLowerCase(Locale.ROOT);
    return type.isEmpty() || type.equals("text/html") || type.equals("application/xhtml+xml");
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
