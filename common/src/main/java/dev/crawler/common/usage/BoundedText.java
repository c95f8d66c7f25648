package dev.crawler.common.usage;

/** Text from the web cut to a named length before it is kept. */
final class BoundedText {

  private BoundedText() {}

  /**
   * The text, or its first {@code maxChars} characters followed by "…" when it is longer (the
   * result is then {@code maxChars + 1} characters). A surrogate pair is not split.
   */
  static String cut(String text, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    int end = maxChars;
    if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + "…";
  }
}
