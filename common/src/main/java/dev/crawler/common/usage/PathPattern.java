package dev.crawler.common.usage;

import java.nio.charset.StandardCharsets;

/**
 * A robots.txt path pattern, matched as RFC 9309 section 2.2 matches {@code Allow} and {@code
 * Disallow}: from the start of the path (and query), {@code *} for any run of characters, a final
 * {@code $} for the end of the path, case-sensitive. TDMRep's {@code location} uses the same
 * matching (TDMRep, "TDM File on the Origin Server").
 *
 * <p>Pattern and path are compared in one normalized form (RFC 9309 section 2.2.2): octets outside
 * printable US-ASCII percent-encoded as UTF-8, percent-encodings of unreserved characters (RFC 3986
 * section 2.3) decoded, the rest kept encoded with upper-case hex digits. A pattern's {@link
 * #length()} is that of its normalized form, in octets, as longest-match precedence counts it.
 *
 * <p>Immutable; matching costs at most the product of the two lengths, and about the length of the
 * shorter for a pattern without {@code *}.
 *
 * @param pattern the normalized pattern
 */
record PathPattern(String pattern) {

  /** The pattern {@code text} in its normalized form. */
  static PathPattern of(String text) {
    return new PathPattern(normalize(text));
  }

  /** The pattern's length in octets of its normalized form. */
  int length() {
    return pattern.length();
  }

  /**
   * Whether the pattern matches {@code path}, which must be {@linkplain #normalize normalized}.
   * Allocates nothing; without {@code *} it stops at the first character that differs.
   */
  boolean matches(String path) {
    boolean anchored = pattern.endsWith("$");
    int end = anchored ? pattern.length() - 1 : pattern.length();
    int p = 0;
    int s = 0;
    // the last '*' seen, and where in the path its run of characters ends so far
    int star = -1;
    int starEnd = 0;
    while (true) {
      if (p == end) {
        // a pattern matches a prefix of the path, unless '$' ends it
        if (!anchored || s == path.length()) {
          return true;
        }
      } else if (pattern.charAt(p) == '*') {
        star = p++;
        starEnd = s;
        continue;
      } else if (s < path.length() && pattern.charAt(p) == path.charAt(s)) {
        p++;
        s++;
        continue;
      }
      // no match from here: let the last '*' take one more character, or fail
      if (star < 0 || starEnd == path.length()) {
        return false;
      }
      p = star + 1;
      s = ++starEnd;
    }
  }

  /**
   * A path (with its query) or a pattern in the form they are compared in: see the class comment.
   */
  static String normalize(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '%'
          && i + 2 < text.length()
          && isHex(text.charAt(i + 1))
          && isHex(text.charAt(i + 2))) {
        int octet = Integer.parseInt(text.substring(i + 1, i + 3), 16);
        if (isUnreserved(octet)) {
          out.append((char) octet);
        } else {
          appendEscaped(out, octet);
        }
        i += 3;
      } else if (c > 0x20 && c < 0x7F) {
        out.append(c);
        i++;
      } else {
        int end = Character.isHighSurrogate(c) && i + 1 < text.length() ? i + 2 : i + 1;
        for (byte octet : text.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
          appendEscaped(out, octet & 0xFF);
        }
        i = end;
      }
    }
    return out.toString();
  }

  private static void appendEscaped(StringBuilder out, int octet) {
    out.append('%').append(Character.toUpperCase(Character.forDigit(octet >> 4, 16)));
    out.append(Character.toUpperCase(Character.forDigit(octet & 0xF, 16)));
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  /** ALPHA / DIGIT / "-" / "." / "_" / "~" (RFC 3986 section 2.3). */
  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}
