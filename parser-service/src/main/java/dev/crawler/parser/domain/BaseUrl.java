package dev.crawler.parser.domain;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.internal.StringUtil;
import org.jspecify.annotations.Nullable;

/**
 * A base URL that resolves link references to what jsoup's {@code absUrl} makes of them, quickly.
 *
 * <p>jsoup's {@link StringUtil#resolve(String, String)} strips control characters with a regular
 * expression and parses both URLs, and was most of the markdown's time on a page of links. The
 * references most links are (an absolute http or https URL, an absolute path, a relative path, a
 * fragment, a query) are resolved here by joining strings, to the same result ({@code BaseUrlTest}
 * compares the two on tables and generated references); the others, and any base that is not a
 * plain http or https URL, by jsoup. Immutable.
 */
final class BaseUrl {
  private final String url;

  /** {@code scheme://authority}, null when the base is not an http or https URL. */
  private final @Nullable String origin;

  /** The base up to the last {@code /} of its path. */
  private final @Nullable String directory;

  /** The base without its query and fragment. */
  private final @Nullable String path;

  /** The base without its fragment. */
  private final @Nullable String document;

  /** Whether the base has a path: without one, URL parsers keep a reference's dot segments. */
  private final boolean hasPath;

  BaseUrl(String url) {
    this.url = url;
    int authority = url.startsWith("https://") ? 8 : url.startsWith("http://") ? 7 : -1;
    int end = authority < 0 ? -1 : indexOfAny(url, "/?#", authority);
    if (authority < 0
        || end == authority
        || !isSimple(url, 0, url.length())
        || hasUserInfo(url, authority)) {
      // (jsoup writes the scheme lower-case and drops user information)
      origin = directory = path = document = null;
      hasPath = false;
      return;
    }
    int fragment = url.indexOf('#');
    int query = url.indexOf('?');
    int pathEnd = query >= 0 && (fragment < 0 || query < fragment) ? query : fragment;
    if (pathEnd < 0) {
      pathEnd = url.length();
    }
    origin = end < 0 ? url : url.substring(0, end);
    hasPath = end >= 0 && url.charAt(end) == '/';
    if (!hasPath) {
      // no path: the root's
      directory = origin + "/";
      path = origin + "/";
    } else {
      directory = url.substring(0, url.lastIndexOf('/', pathEnd - 1) + 1);
      path = url.substring(0, pathEnd);
    }
    document = fragment < 0 ? url : url.substring(0, fragment);
  }

  /** The reference resolved, as jsoup resolves it; empty when it does not resolve. */
  String resolve(String reference) {
    if (origin != null && isSimple(reference, 0, reference.length())) {
      char first = reference.charAt(0);
      if (first == '#') {
        return document + reference;
      }
      if (first == '?') {
        return path + reference;
      }
      if (first == '/') {
        if ((reference.length() == 1 || reference.charAt(1) != '/') && !reference.contains("/.")) {
          return origin + reference;
        }
      } else if (reference.startsWith("http://") || reference.startsWith("https://")) {
        if (!hasUserInfo(reference, reference.indexOf("//") + 2)) {
          return reference;
        }
      } else if (!hasScheme(reference)) {
        return merged(reference);
      }
    }
    return StringUtil.resolve(url, reference);
  }

  /** No whitespace, control character or backslash, which URL parsers strip or turn. */
  private static boolean isSimple(String text, int from, int to) {
    if (from == to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c == 0x7F || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private static boolean hasUserInfo(String url, int authority) {
    int at = url.indexOf('@', authority);
    int end = indexOfAny(url, "/?#", authority);
    return at >= 0 && (end < 0 || at < end);
  }

  /** Whether a {@code :} comes before the first {@code /}, {@code ?} or {@code #}. */
  private static boolean hasScheme(String reference) {
    int colon = reference.indexOf(':');
    int end = indexOfAny(reference, "/?#", 0);
    return colon >= 0 && (end < 0 || colon < end);
  }

  /**
   * A relative-path reference merged with the base's directory, its {@code .} and {@code ..}
   * segments removed (RFC 3986 section 5.2.4); jsoup's answer when a {@code ..} would climb above
   * the root.
   */
  private String merged(String reference) {
    int end = indexOfAny(reference, "?#", 0);
    String relative = end < 0 ? reference : reference.substring(0, end);
    if (!relative.equals(".")
        && !relative.equals("..")
        && !relative.startsWith("./")
        && !relative.startsWith("../")
        && !relative.contains("/./")
        && !relative.contains("/../")
        && !relative.endsWith("/.")
        && !relative.endsWith("/..")) {
      return directory + reference;
    }
    if (!hasPath) {
      return StringUtil.resolve(url, reference);
    }
    String path = directory.substring(origin.length()) + relative;
    List<String> segments = new ArrayList<>();
    int start = 1;
    boolean endsInDirectory = false;
    while (start <= path.length()) {
      int slash = path.indexOf('/', start);
      String segment = path.substring(start, slash < 0 ? path.length() : slash);
      endsInDirectory = slash < 0 && (segment.equals(".") || segment.equals(".."));
      if (segment.startsWith(".") && !segment.equals(".") && !segment.equals("..")
          || segment.equals("..") && segments.isEmpty()) {
        // URL parsers differ on these (a segment "..x", a climb above the root): jsoup decides
        return StringUtil.resolve(url, reference);
      }
      if (segment.equals("..")) {
        segments.remove(segments.size() - 1);
      } else if (!segment.equals(".")) {
        segments.add(segment);
      }
      start = slash < 0 ? path.length() + 1 : slash + 1;
    }
    StringBuilder resolved = new StringBuilder(origin);
    for (String segment : segments) {
      resolved.append('/').append(segment);
    }
    if (endsInDirectory || segments.isEmpty()) {
      resolved.append('/');
    }
    return resolved.append(end < 0 ? "" : reference.substring(end)).toString();
  }

  private static int indexOfAny(String text, String characters, int from) {
    for (int i = from; i < text.length(); i++) {
      if (characters.indexOf(text.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }
}
