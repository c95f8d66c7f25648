package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jsoup.internal.StringUtil;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * The crawlable address a link element names: its attribute resolved against the element's base (as
 * jsoup's {@link Element#absUrl(String)} resolves it) and {@linkplain UrlNormalizer normalized},
 * with the answers for recent references remembered across pages. Pages of one site link the same
 * addresses again and again (menus, footers, related pages), and resolving plus normalizing is most
 * of what a page's links cost.
 *
 * <p>An answer is remembered only under a key that determines it whatever page the link is on (RFC
 * 3986 section 5.2): an absolute {@code http://} or {@code https://} reference, or one of another
 * scheme ({@code mailto:}, {@code javascript:}), on its own (resolution ignores the base); an
 * absolute-path reference ({@code /docs/a.html}) with the base's scheme and authority (resolution
 * keeps nothing else of the base); and a relative-path reference ({@code a.html}, {@code
 * ../b/c.html}) with the base's directory, its address up to the last {@code /} of its path
 * (resolution merges the reference into that). A reference to a place on the page ({@code #} and a
 * fragment of plain characters) names the page itself, normalized once per base. References that
 * start with {@code ?}, other fragments, empty ones, and ones that start with a control character
 * or a space depend on more of the base and are resolved every time. Holds at most {@code capacity}
 * answers, forgetting the least recently used. Not thread-safe: one per thread.
 */
final class LinkTargets {

  /**
   * Answers remembered by default, per parsing thread: ~2.5 MB for addresses of ~60 characters. A
   * site's menus and footers need few, and they are what most pages repeat. Eight times as many
   * (65,536) answered more of the links between a site's pages for no less CPU per page, but kept
   * ~40 MB more of the heap live in a crawl of real documentation, every entry promoted before it
   * was forgotten.
   */
  static final int DEFAULT_CAPACITY = 8_192;

  private final int capacity;
  private final LinkedHashMap<String, Optional<String>> recent;
  private Base lastBase = new Base("", null, null, null, null, Optional.empty());
  private final Map<String, Boolean> normalAuthorities = new HashMap<>();

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
   * The normalized absolute URL the element's attribute names, or empty when it names nothing
   * crawlable (unresolvable against the base, not http(s), malformed).
   */
  Optional<String> of(Element element, String attribute) {
    String reference = element.attr(attribute);
    if (capacity > 0 && isPlainFragment(reference, 0)) {
      // the page itself (a link to a place on it): resolution keeps all of the base but its
      // fragment, which normalization drops
      return base(element.baseUri()).self();
    }
    String key = keyOf(element, reference);
    if (key == null) {
      return resolve(element, attribute);
    }
    Optional<String> known = recent.get(key);
    if (known == null) {
      String simple = simpleTarget(element.baseUri(), reference);
      known = simple != null ? Optional.of(simple) : resolve(element, attribute);
      recent.put(key, known);
    }
    return known;
  }

  /**
   * The answer for a reference that needs neither resolving nor normalizing, or null. A path made
   * of unreserved characters (RFC 3986 section 2.3) with no empty or dot segment, and perhaps a
   * query of one {@code name=value} pair of them, is left as it is by normalization (which sorts
   * the pairs of a longer query and drops the {@code =} of an empty value); after an authority or a
   * directory already in normal form, it is the normalized URL. Most links of a page are so, and
   * resolving and normalizing them was the most of what a new link cost.
   */
  private @Nullable String simpleTarget(String baseUri, String reference) {
    int fragment = reference.indexOf('#');
    if (fragment > 0) {
      // normalization drops a fragment, so the reference without it names the same URL; a
      // fragment of other characters may make the whole URL unreadable to the normalizer
      if (!isPlainFragment(reference, fragment)) {
        return null;
      }
      reference = reference.substring(0, fragment);
    }
    if (reference.startsWith("http://") || reference.startsWith("https://")) {
      int path = reference.indexOf('/', reference.indexOf("//") + 2);
      return path > 0
              && isNormalAuthority(reference.substring(0, path))
              && isSimple(reference, path + 1)
          ? reference
          : null;
    }
    if (reference.startsWith("/")) {
      String authority = base(baseUri).normalAuthority();
      return authority != null && isSimple(reference, 1) ? authority + reference : null;
    }
    if (isRelativePath(reference)) {
      Base base = base(baseUri);
      String directory = base.normalDirectory();
      String authority = base.authority();
      if (directory == null || authority == null) {
        return null;
      }
      // each leading ../ takes the last segment off the base's directory (RFC 3986 section
      // 5.2.4); more of them than the directory has segments is left to resolution
      int from = 0;
      int end = directory.length();
      int root = authority.length(); // where the directory's path starts: its first /
      while (reference.startsWith("../", from)) {
        if (end - 1 <= root) {
          return null;
        }
        end = directory.lastIndexOf('/', end - 2) + 1;
        from += 3;
      }
      return isSimple(reference, from)
          ? directory.substring(0, end) + reference.substring(from)
          : null;
    }
    return null;
  }

  /**
   * Whether {@code reference} from {@code at} is a fragment ({@code #} then characters allowed in
   * one, RFC 3986 section 3.5, but percent-encodings), which normalization drops whole.
   */
  static boolean isPlainFragment(String reference, int at) {
    if (at >= reference.length() || reference.charAt(at) != '#') {
      return false;
    }
    for (int i = at + 1; i < reference.length(); i++) {
      char c = reference.charAt(i);
      if (!isUnreserved(c) && "!$&'()*+,;=:@/?".indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code scheme://authority} is as normalization writes it; remembered for the first
   * {@value #MAX_AUTHORITIES} authorities met.
   */
  private boolean isNormalAuthority(String authority) {
    Boolean known = normalAuthorities.get(authority);
    if (known == null) {
      known =
          UrlNormalizer.tryNormalize(authority + "/")
              .filter(normal -> normal.equals(authority + "/"))
              .isPresent();
      if (normalAuthorities.size() < MAX_AUTHORITIES) {
        normalAuthorities.put(authority, known);
      }
    }
    return known;
  }

  private static final int MAX_AUTHORITIES = 4_096;

  /** From {@code from} on: plain path segments, perhaps a query of one plain {@code name=value}. */
  static boolean isSimple(String reference, int from) {
    int segment = from;
    int i = from;
    while (i < reference.length() && reference.charAt(i) != '?') {
      char c = reference.charAt(i);
      if (c == '/') {
        if (i == segment || isDotSegment(reference, segment, i)) {
          return false;
        }
        segment = i + 1;
      } else if (!isUnreserved(c)) {
        return false;
      }
      i++;
    }
    if (isDotSegment(reference, segment, i)) {
      return false;
    }
    return i == reference.length() || isPlainQuery(reference, i + 1);
  }

  private static boolean isDotSegment(String reference, int start, int end) {
    return end - start == 1 && reference.charAt(start) == '.'
        || end - start == 2 && reference.startsWith("..", start);
  }

  /**
   * One {@code name=value} pair, neither empty (normalization drops the {@code =} of an empty
   * value), both of unreserved characters.
   */
  private static boolean isPlainQuery(String reference, int from) {
    int equals = reference.indexOf('=', from);
    if (equals <= from || equals == reference.length() - 1) {
      return false;
    }
    for (int i = from; i < reference.length(); i++) {
      if (i != equals && !isUnreserved(reference.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isUnreserved(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  /** Answers remembered now. */
  int size() {
    return recent.size();
  }

  private static Optional<String> resolve(Element element, String attribute) {
    String absolute = element.absUrl(attribute);
    return absolute.isEmpty() ? Optional.empty() : UrlNormalizer.tryNormalize(absolute);
  }

  /**
   * The key that determines the answer for this reference on any page, or null when there is none.
   */
  private @Nullable String keyOf(Element element, String reference) {
    if (capacity == 0) {
      return null;
    }
    if (reference.startsWith("http://") || reference.startsWith("https://")) {
      return reference;
    }
    if (reference.startsWith("/") && !reference.startsWith("//")) {
      Base base = base(element.baseUri());
      return base.authority == null ? null : base.authority + reference;
    }
    if (isRelativePath(reference)) {
      Base base = base(element.baseUri());
      return base.directory == null ? null : base.directory + RELATIVE + reference;
    }
    if (hasSchemeOtherThanHttp(reference)) {
      return reference;
    }
    return null;
  }

  /**
   * Separates a base's directory from a relative reference in a key: no attribute value holds it
   * (jsoup makes NUL U+FFFD).
   */
  private static final char RELATIVE = '\u0000';

  /**
   * A relative-path reference: not empty, not starting with a control character or space (which
   * resolution strips), {@code /}, {@code ?} or {@code #}, and no {@code :} in its first segment.
   */
  private static boolean isRelativePath(String reference) {
    if (reference.isEmpty()
        || reference.charAt(0) <= ' '
        || "/?#".indexOf(reference.charAt(0)) >= 0) {
      return false;
    }
    for (int i = 0; i < reference.length(); i++) {
      char c = reference.charAt(i);
      if (c == ':') {
        return false;
      }
      if (c == '/' || c == '?' || c == '#') {
        return true;
      }
    }
    return true;
  }

  /**
   * A reference with a scheme (RFC 3986 section 3.1) other than http and https, any case: never
   * resolved against the base.
   */
  private static boolean hasSchemeOtherThanHttp(String reference) {
    int colon = reference.indexOf(':');
    if (colon <= 0 || !isAsciiLetter(reference.charAt(0))) {
      return false;
    }
    for (int i = 1; i < colon; i++) {
      char c = reference.charAt(i);
      if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
        return false;
      }
    }
    String scheme = reference.substring(0, colon);
    return !scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https");
  }

  private static boolean isAsciiLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  /**
   * The scheme and authority ({@code http://host:port}) and the directory ({@code
   * http://host:port/docs/}) of an http(s) base, each null for another base or one without a path.
   * The base is the same for every element of a page: the last one's answer is kept.
   */
  private Base base(String base) {
    if (!base.equals(lastBase.address)) {
      lastBase = Base.of(base);
    }
    return lastBase;
  }

  private record Base(
      String address,
      @Nullable String authority,
      @Nullable String directory,
      @Nullable String normalAuthority,
      @Nullable String normalDirectory,
      Optional<String> self) {

    private Base(
        String address,
        @Nullable String authority,
        @Nullable String directory,
        @Nullable String normalAuthority,
        @Nullable String normalDirectory) {
      this(address, authority, directory, normalAuthority, normalDirectory, selfOf(address));
    }

    /**
     * What a reference to a fragment of the page resolves to: the base, its fragment replaced (as
     * jsoup resolves it), which normalization drops.
     */
    private static Optional<String> selfOf(String address) {
      String resolved = StringUtil.resolve(address, "#");
      return resolved.isEmpty() ? Optional.empty() : UrlNormalizer.tryNormalize(resolved);
    }

    static Base of(String address) {
      int start = address.startsWith("http://") ? 7 : address.startsWith("https://") ? 8 : -1;
      if (start < 0) {
        return new Base(address, null, null, null, null);
      }
      int end = start;
      while (end < address.length() && "/?#".indexOf(address.charAt(end)) < 0) {
        end++;
      }
      String authority = address.substring(0, end);
      String normalAuthority = isNormal(authority + "/") ? authority : null;
      if (end == address.length() || address.charAt(end) != '/') {
        return new Base(address, authority, null, normalAuthority, null);
      }
      int pathEnd = end;
      while (pathEnd < address.length() && "?#".indexOf(address.charAt(pathEnd)) < 0) {
        pathEnd++;
      }
      String directory = address.substring(0, address.lastIndexOf('/', pathEnd - 1) + 1);
      return new Base(
          address, authority, directory, normalAuthority, isNormal(directory) ? directory : null);
    }

    /**
     * Whether normalization leaves the URL as it is, and nothing in its path would change a simple
     * reference after it.
     */
    private static boolean isNormal(String url) {
      return UrlNormalizer.tryNormalize(url).filter(url::equals).isPresent();
    }
  }
}
