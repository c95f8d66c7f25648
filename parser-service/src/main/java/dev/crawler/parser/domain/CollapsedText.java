package dev.crawler.parser.domain;

import java.nio.charset.StandardCharsets;

/**
 * Text as a parsed document keeps it: each run of whitespace made one space, none at either end,
 * and cut at a length in characters without splitting a surrogate pair. {@link PageText} makes the
 * same whitespace decisions ({@link #isWhitespace(char)}) while it walks an element.
 *
 * <p>Stateless.
 */
final class CollapsedText {

  /**
   * Tab, line feed, vertical tab, form feed, carriage return and space, as bits of a mask indexed
   * by the character.
   */
  private static final long ASCII_WHITESPACE =
      1L << '\t' | 1L << '\n' | 1L << 0x0B | 1L << '\f' | 1L << '\r' | 1L << ' ';

  private CollapsedText() {}

  /**
   * The text with each run of whitespace (space, tab, line feed, vertical tab, form feed, carriage
   * return, no-break space) made one space, and none at either end. Returns the text itself when it
   * is already so, as jsoup's text is.
   */
  static String collapseWhitespace(String text) {
    if (isCollapsed(text)) {
      return text;
    }
    StringBuilder collapsed = new StringBuilder(text.length());
    boolean pendingSpace = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isWhitespace(c)) {
        pendingSpace = collapsed.length() > 0;
      } else {
        if (pendingSpace) {
          collapsed.append(' ');
          pendingSpace = false;
        }
        collapsed.append(c);
      }
    }
    return collapsed.toString();
  }

  private static boolean isCollapsed(String text) {
    int length = text.length();
    if (length > 0 && (isWhitespace(text.charAt(0)) || isWhitespace(text.charAt(length - 1)))) {
      return false;
    }
    boolean previousSpace = false;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c == ' ') {
        if (previousSpace) {
          return false;
        }
        previousSpace = true;
      } else if (isWhitespace(c)) {
        return false;
      } else {
        previousSpace = false;
      }
    }
    return true;
  }

  static boolean isWhitespace(char c) {
    // one comparison for the usual character, a letter
    return c <= ' ' ? (ASCII_WHITESPACE & (1L << c)) != 0 : c == '\u00A0';
  }

  /** The first {@code max} characters, one fewer when the cut would split a surrogate pair. */
  static String cut(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = max > 0 && Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end);
  }

  /**
   * {@link #cut(String, int)} of a text in UTF-8. A text of no more bytes than {@code max} has no
   * more characters either, and is kept as it is without being decoded.
   */
  static byte[] cutUtf8(byte[] utf8Text, int max) {
    if (utf8Text.length <= max) {
      return utf8Text;
    }
    String text = new String(utf8Text, StandardCharsets.UTF_8);
    String cut = cut(text, max);
    return cut.length() == text.length() ? utf8Text : cut.getBytes(StandardCharsets.UTF_8);
  }
}
