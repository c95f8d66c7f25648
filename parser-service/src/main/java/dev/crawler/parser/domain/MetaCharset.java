package dev.crawler.parser.domain;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The charset an HTML page declares in the one form that needs no parsing to be sure of: a {@code
 * <meta charset="utf-8">} that is the first element of the page's head, after nothing but an
 * optional doctype and the {@code <html>} and {@code <head>} start tags (HTML's own recommendation,
 * and what most pages do). jsoup, given no charset, parses the first 5 KB of a page once more just
 * to find the declaration; a page recognized here is parsed once. Anything else (a comment or
 * another element first, {@code http-equiv}, another charset, a byte order mark) is left to jsoup's
 * own detection, so the decoding is the same either way. Pure and thread-safe.
 */
final class MetaCharset {

  /** How far into the body the declaration is looked for, as HTML's prescan does. */
  static final int PRESCAN_BYTES = 1024;

  private MetaCharset() {}

  /**
   * UTF-8 when the page declares it up front as described; empty when jsoup must look for itself.
   */
  static Optional<Charset> declaredUpFront(byte[] body) {
    Scanner scanner = new Scanner(body, Math.min(body.length, PRESCAN_BYTES));
    scanner.skipWhitespace();
    if (scanner.skipTag("!doctype")) {
      scanner.skipWhitespace();
    }
    if (scanner.skipTag("html")) {
      scanner.skipWhitespace();
    }
    if (scanner.skipTag("head")) {
      scanner.skipWhitespace();
    }
    return scanner.isUtf8MetaCharset() ? Optional.of(StandardCharsets.UTF_8) : Optional.empty();
  }

  /** Reads ASCII markup from the start of a body; any byte it does not expect ends the scan. */
  private static final class Scanner {

    private final byte[] bytes;
    private final int end;
    private int position;

    Scanner(byte[] bytes, int end) {
      this.bytes = bytes;
      this.end = end;
    }

    void skipWhitespace() {
      while (position < end && isWhitespace(bytes[position])) {
        position++;
      }
    }

    /** Skips {@code <name ...>} when it comes next, its attributes whatever they are. */
    boolean skipTag(String name) {
      int after = position + 1 + name.length();
      if (after >= end || bytes[position] != '<' || !matchesIgnoringCase(position + 1, name)) {
        return false;
      }
      if (bytes[after] != '>' && !isWhitespace(bytes[after])) {
        return false; // <htmlx>, <header>: another element
      }
      for (int i = after; i < end; i++) {
        if (bytes[i] == '>') {
          position = i + 1;
          return true;
        }
        if (bytes[i] == '"' || bytes[i] == '\'') {
          // a quoted attribute value may hold anything, > included
          int closing = i + 1;
          while (closing < end && bytes[closing] != bytes[i]) {
            closing++;
          }
          i = closing;
        } else if (bytes[i] == '<') {
          return false;
        }
      }
      return false;
    }

    /**
     * Whether what comes next is exactly {@code <meta charset=utf-8>}, the value quoted or not, a
     * closing slash allowed.
     */
    boolean isUtf8MetaCharset() {
      if (!skipLiteral("<meta") || !skipRequiredWhitespace() || !skipLiteral("charset")) {
        return false;
      }
      skipWhitespace();
      if (!skipLiteral("=")) {
        return false;
      }
      skipWhitespace();
      byte quote =
          position < end && (bytes[position] == '"' || bytes[position] == '\'')
              ? bytes[position]
              : 0;
      if (quote != 0) {
        position++;
      }
      if (!skipLiteral("utf-8")) {
        return false;
      }
      if (quote != 0 && !skipByte(quote)) {
        return false;
      }
      skipWhitespace();
      skipByte((byte) '/');
      return skipByte((byte) '>');
    }

    private boolean skipRequiredWhitespace() {
      int start = position;
      skipWhitespace();
      return position > start;
    }

    private boolean skipLiteral(String literal) {
      if (position + literal.length() > end || !matchesIgnoringCase(position, literal)) {
        return false;
      }
      position += literal.length();
      return true;
    }

    private boolean skipByte(byte expected) {
      if (position < end && bytes[position] == expected) {
        position++;
        return true;
      }
      return false;
    }

    private boolean matchesIgnoringCase(int at, String literal) {
      for (int i = 0; i < literal.length(); i++) {
        int b = bytes[at + i];
        int lower = b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
        if (lower != literal.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private static boolean isWhitespace(byte b) {
      return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }
  }
}
