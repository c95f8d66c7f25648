package dev.crawler.parser.domain;

import java.util.Locale;
import java.util.Optional;

/**
 * A page's instruction to load another URL after a delay: {@code <meta http-equiv="refresh"
 * content="0; url=next.html">} or the {@code Refresh} response header of the same syntax, read as
 * the HTML standard's "shared declarative refresh steps" read it: a delay in seconds (digits, a
 * fraction ignored), then after a {@code ;} or {@code ,} an optional {@code url=} and the URL, in
 * quotes or not. A refresh without a URL reloads the page itself.
 *
 * @param delaySeconds how long the page asks to be shown first
 * @param url the URL to load, as written (resolved by the caller); empty for the page itself
 */
public record Refresh(long delaySeconds, Optional<String> url) {

  /**
   * The longest delay a refresh may have to count as a redirect: the page is a signpost, not a
   * document. A page that refreshes later is shown for a while, so it is a document, and its target
   * a link.
   */
  public static final long MAX_REDIRECT_DELAY_SECONDS = 10;

  /** The longest content read, in characters: a refresh is a number and a URL. */
  static final int MAX_CONTENT_CHARS = 8_192;

  /** The refresh a content attribute or header states, if it states one. */
  public static Optional<Refresh> parse(String content) {
    String text =
        content.length() > MAX_CONTENT_CHARS ? content.substring(0, MAX_CONTENT_CHARS) : content;
    int i = skipSpace(text, 0);
    int digits = i;
    while (i < text.length() && Character.isDigit(text.charAt(i))) {
      i++;
    }
    long delay;
    if (i == digits) {
      if (i < text.length() && text.charAt(i) == '.') {
        delay = 0; // ".5": no whole seconds
      } else {
        return Optional.empty(); // not a refresh
      }
    } else {
      String number = text.substring(digits, i);
      delay = number.length() > 9 ? Long.MAX_VALUE : Long.parseLong(number);
    }
    while (i < text.length() && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
      i++;
    }
    i = skipSpace(text, i);
    if (i < text.length() && (text.charAt(i) == ';' || text.charAt(i) == ',')) {
      i = skipSpace(text, i + 1);
    } else if (i < text.length()) {
      return Optional.of(new Refresh(delay, Optional.empty())); // "5 junk": no URL
    }
    if (i >= text.length()) {
      return Optional.of(new Refresh(delay, Optional.empty()));
    }
    if (text.regionMatches(true, i, "url", 0, 3)) {
      int afterUrl = skipSpace(text, i + 3);
      if (afterUrl < text.length() && text.charAt(afterUrl) == '=') {
        i = skipSpace(text, afterUrl + 1);
      }
    }
    String url = text.substring(i);
    if (!url.isEmpty() && (url.charAt(0) == '\'' || url.charAt(0) == '"')) {
      char quote = url.charAt(0);
      int end = url.indexOf(quote, 1);
      url = end < 0 ? url.substring(1) : url.substring(1, end);
    }
    url = url.strip();
    return Optional.of(new Refresh(delay, url.isEmpty() ? Optional.empty() : Optional.of(url)));
  }

  /** Whether it is a redirect rather than a link: short enough to leave the page unseen. */
  public boolean isRedirect() {
    return delaySeconds <= MAX_REDIRECT_DELAY_SECONDS;
  }

  /** In words, for the crawl log: {@code meta refresh after 0 s}. */
  public String describe(String where) {
    return where.toLowerCase(Locale.ROOT) + " after " + delaySeconds + " s";
  }

  private static int skipSpace(String text, int from) {
    int i = from;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }
}
