package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The links a document makes (link detection): its outlinks, from the link elements {@link
 * HtmlFacts} gathers or a file's hyperlinks, and the next page of a multi-page document. An outlink
 * is the element's {@code href} ({@code src} for a frame) resolved and normalized by {@link
 * LinkTargets}; only http and https links count, the first of duplicates is kept, and the bounds
 * {@link ParserSettings#maxOutlinks()} and {@link ParserSettings#maxLinkChars()} apply.
 *
 * <p>Thread-safe: one instance serves every page; each thread has its own {@link LinkTargets}.
 */
final class Outlinks {

  /** The anchor text kept per link, in characters: a link around a whole article is no anchor. */
  static final int MAX_ANCHOR_CHARS = 1_000;

  /**
   * Each thread's recent link targets: a stream thread parses page after page of the same sites.
   */
  private static final ThreadLocal<LinkTargets> LINK_TARGETS =
      ThreadLocal.withInitial(() -> new LinkTargets(LinkTargets.DEFAULT_CAPACITY));

  private final ParserSettings settings;

  Outlinks(ParserSettings settings) {
    this.settings = settings;
  }

  /**
   * Adds the crawlable links of the elements to {@code links}, first occurrence of each URL only,
   * at most {@code maxOutlinks} of them and none longer than {@code maxLinkChars}, tells {@code
   * dropped} of those left out for either bound, and returns how many crawlable links there were,
   * repeats and dropped ones included.
   */
  int collect(List<Element> elements, List<Link> links, DroppedLinks.Collector dropped) {
    // pages repeat links (menus, "top" links), and sites repeat them across pages:
    // LinkTargets remembers what they resolve to
    LinkTargets targets = LINK_TARGETS.get();
    Map<String, Link> byUrl = new LinkedHashMap<>();
    int count = 0;
    for (Element element : elements) {
      boolean isFrame = element.nameIs("frame") || element.nameIs("iframe");
      Optional<String> url = targets.of(element, isFrame ? "src" : "href");
      if (url.isEmpty()) {
        // unresolvable against the base; mailto:, javascript:, tel:, ftp:, malformed:
        // nothing to crawl
        continue;
      }
      count++;
      if (url.get().length() > settings.maxLinkChars()) {
        // a link no server would take; as a record, one that could stop the crawl
        dropped.add(url.get(), "URL_TOO_LONG");
        continue;
      }
      boolean isNofollow = !isFrame && HtmlFacts.hasToken(element.attr("rel"), "nofollow");
      Link known = byUrl.get(url.get());
      if (known == null && byUrl.size() >= settings.maxOutlinks()) {
        // a page with more links than the bound: the first ones are kept
        dropped.add(url.get(), "TOO_MANY_LINKS");
        continue;
      }
      if (known == null) {
        Optional<String> anchor = element.nameIs("a") ? anchor(element) : Optional.empty();
        byUrl.put(
            url.get(),
            new Link(url.get(), isFrame ? UrlKind.FRAME : UrlKind.LINK, anchor, isNofollow));
      } else if (known.isNofollow() && !isNofollow) {
        // followed once is followed: the page links to it without reservation somewhere
        byUrl.put(url.get(), new Link(known.url(), known.kind(), known.anchor(), false));
      }
    }
    links.addAll(byUrl.values());
    return count;
  }

  private static Optional<String> anchor(Element a) {
    String text = PageText.of(a);
    if (text.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(CollapsedText.cut(text, MAX_ANCHOR_CHARS));
  }

  /**
   * The next page of a multi-page document: the first {@code <link>} or {@code <a>} with {@code
   * rel=next}, or the first element the selector matches, whose {@code href} resolves to another
   * URL of the page's origin (a next page elsewhere is not part of the same document).
   */
  static Optional<String> nextPage(Document document, String how, String pageUrl) {
    String selector =
        how.equalsIgnoreCase(ParseOptions.REL_NEXT)
            ? "link[rel~=(?i)^next$][href], a[rel~=(?i)^next$][href]"
            : how;
    for (Element element : document.select(selector)) {
      Optional<String> next = UrlNormalizer.tryNormalize(element.absUrl("href"));
      if (next.isPresent() && !next.get().equals(pageUrl) && isSameOrigin(next.get(), pageUrl)) {
        return next;
      }
    }
    return Optional.empty();
  }

  private static boolean isSameOrigin(String url, String other) {
    try {
      return Origin.keyOf(url).equals(Origin.keyOf(other));
    } catch (InvalidUrlException e) {
      return false;
    }
  }
}
