package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * The crawlable address a link element names: its attribute resolved against the element's base (as
 * jsoup's {@link Element#absUrl(String)} resolves it) and {@linkplain UrlNormalizer normalized}, with the
 * answers for recent references remembered across pages. Pages of one site link the same addresses
 * again and again (menus, footers, related pages), and resolving plus normalizing is most of what a
 * page's links cost.
 *
 * <p>An answer is remembered only under a key that determines it whatever page the link is on (RFC 3986
 * section 5.2): an absolute {@code http://} or {@code https://} reference on its own (resolution ignores
 * the base), and an absolute-path reference ({@code /docs/a.html}) with the base's scheme and authority
 * (resolution keeps nothing else of the base). Other relative references depend on the base's path and
 * are resolved every time. Holds at most {@code capacity} answers, forgetting the least recently used.
 * Not thread-safe: one per thread.
 */
final class LinkTargets {

  /**
   * Answers remembered by default, per parsing thread: ~16 MB for addresses of ~60 characters. A site's
   * menus and footers need few; the rest serves links between a site's pages, which a crawl meets again
   * within a few thousand pages.
   */
  static final int DEFAULT_CAPACITY = 65_536;

  private final int capacity;
  private final LinkedHashMap<String, Optional<String>> recent;
  private @Nullable String lastBase;
  private @Nullable String lastBaseAuthority;

  LinkTargets(int capacity) {
    this.capacity = capacity;
    this.recent =
        new LinkedHashMap<>(256, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Optional<String>> eldest) {
            return size() > LinkTargets.this.capacity;
          }
        };
  }

  /**
   * The normalized absolute URL the element's attribute names, or empty when it names nothing crawlable
   * (unresolvable against the base, not http(s), malformed).
   */
  Optional<String> of(Element element, String attribute) {
    String key = keyOf(element, element.attr(attribute));
    if (key == null) {
      return resolve(element, attribute);
    }
    Optional<String> known = recent.get(key);
    if (known == null) {
      known = resolve(element, attribute);
      recent.put(key, known);
    }
    return known;
  }

  /** Answers remembered now. */
  int size() {
    return recent.size();
  }

  private static Optional<String> resolve(Element element, String attribute) {
    String absolute = element.absUrl(attribute);
    return absolute.isEmpty() ? Optional.empty() : UrlNormalizer.tryNormalize(absolute);
  }

  /** The key that determines the answer for this reference on any page, or null when there is none. */
  private @Nullable String keyOf(Element element, String reference) {
    if (capacity == 0) {
      return null;
    }
    if (reference.startsWith("http://") || reference.startsWith("https://")) {
      return reference;
    }
    if (reference.startsWith("/") && !reference.startsWith("//")) {
      String authority = baseAuthority(element.baseUri());
      return authority == null ? null : authority + reference;
    }
    return null;
  }

  /**
   * The scheme and authority of an http(s) base ({@code http://host:port}), or null for another base.
   * The base is the same for every element of a page: the last one's answer is kept.
   */
  private @Nullable String baseAuthority(String base) {
    if (base.equals(lastBase)) {
      return lastBaseAuthority;
    }
    String authority = null;
    int start = base.startsWith("http://") ? 7 : base.startsWith("https://") ? 8 : -1;
    if (start > 0) {
      int end = start;
      while (end < base.length() && "/?#".indexOf(base.charAt(end)) < 0) {
        end++;
      }
      authority = base.substring(0, end);
    }
    lastBase = base;
    lastBaseAuthority = authority;
    return authority;
  }
}
