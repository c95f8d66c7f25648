package dev.crawler.parser.domain;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether jsoup's own detection would decode a page as UTF-8, told from its bytes without parsing.
 * jsoup, given no charset, parses the first {@value #SNIFF_BYTES} bytes of a page as a document of
 * its own, only to find a declaration there (a byte order mark, the first {@code <meta
 * http-equiv="Content-Type" content="…charset=…">} or {@code <meta charset>}, else an {@code <?xml
 * encoding>}), and decodes as UTF-8 unless one names another charset: on real pages that first
 * parse was a tenth of the parser's time. A page recognized here is parsed once, as UTF-8, and so
 * exactly as jsoup would have decoded it.
 *
 * <p>A page is recognized when, in the bytes jsoup looks at, nothing could name another charset:
 * there is no byte order mark, every {@code charset} and every {@code encoding} (in any case) is
 * followed by {@code =utf-8} (spaces and one quote allowed, and then a quote, a space, {@code ;},
 * {@code ,} or {@code >}), and no {@code <meta} tag and no {@code <?} declaration holds a {@code &}
 * (a character reference could spell a charset the bytes do not). A declaration or a word anywhere
 * in those bytes that does not fit, in a comment or a title as well, leaves the page to jsoup,
 * which is never wrong, only slower. Pure and thread-safe.
 */
final class MetaCharset {

  /** The bytes at the start of a page that jsoup parses to find a declared charset. */
  static final int SNIFF_BYTES = 5 * 1024;

  private MetaCharset() {}

  /** UTF-8 when jsoup's detection certainly comes to it; empty when jsoup must look for itself. */
  static Optional<Charset> certainlyUtf8(byte[] body) {
    int end = Math.min(body.length, SNIFF_BYTES);
    if (startsWithByteOrderMark(body)) {
      return Optional.empty();
    }
    for (int i = 0; i < end; i++) {
      byte b = body[i];
      if (b == '<') {
        if (!referenceFreeTag(body, i, end)) {
          return Optional.empty();
        }
      } else if ((b | 0x20) == 'c' && matchesIgnoringCase(body, i, end, "charset")) {
        if (!namesUtf8(body, i + "charset".length(), end)) {
          return Optional.empty();
        }
      } else if ((b | 0x20) == 'e' && matchesIgnoringCase(body, i, end, "encoding")) {
        if (!namesUtf8(body, i + "encoding".length(), end)) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(StandardCharsets.UTF_8);
  }

  private static boolean startsWithByteOrderMark(byte[] body) {
    int first = body.length > 0 ? body[0] & 0xFF : -1;
    int second = body.length > 1 ? body[1] & 0xFF : -1;
    return first == 0xEF && second == 0xBB // UTF-8
        || first == 0xFE && second == 0xFF // UTF-16 big-endian
        || first == 0xFF && second == 0xFE // UTF-16 (and UTF-32) little-endian
        || first == 0x00 && second == 0x00; // UTF-32 big-endian
  }

  /**
   * Whether the tag opening at {@code at} is neither a {@code <meta} nor a {@code <?} declaration
   * holding a {@code &} before its end (the next {@code >}); false when such a tag does not end
   * within the bytes looked at.
   */
  private static boolean referenceFreeTag(byte[] body, int at, int end) {
    boolean declaration = at + 1 < end && body[at + 1] == '?';
    if (!declaration && !matchesIgnoringCase(body, at + 1, end, "meta")) {
      return true;
    }
    for (int i = at + 1; i < end; i++) {
      if (body[i] == '>') {
        return true;
      }
      if (body[i] == '&') {
        return false;
      }
    }
    return false;
  }

  /** Whether {@code =utf-8} and then the end of a charset name follow at {@code from}. */
  private static boolean namesUtf8(byte[] body, int from, int end) {
    int i = skipWhitespace(body, from, end);
    if (i >= end || body[i] != '=') {
      return false;
    }
    i = skipWhitespace(body, i + 1, end);
    if (i < end && (body[i] == '"' || body[i] == '\'')) {
      i++;
    }
    if (!matchesIgnoringCase(body, i, end, "utf-8")) {
      return false;
    }
    i += "utf-8".length();
    return i < end && endsName(body[i]);
  }

  private static boolean endsName(byte b) {
    return b == '"' || b == '\'' || b == ';' || b == ',' || b == '>' || isWhitespace(b);
  }

  private static int skipWhitespace(byte[] body, int from, int end) {
    int i = from;
    while (i < end && isWhitespace(body[i])) {
      i++;
    }
    return i;
  }

  private static boolean matchesIgnoringCase(byte[] body, int at, int end, String lowerCase) {
    if (at + lowerCase.length() > end) {
      return false;
    }
    for (int i = 0; i < lowerCase.length(); i++) {
      int b = body[at + i];
      int lower = b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
      if (lower != lowerCase.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
  }
}
