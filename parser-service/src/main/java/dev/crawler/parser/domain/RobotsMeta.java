package dev.crawler.parser.domain;

import java.util.Locale;

/**
 * The robots directives of a page, from {@code <meta name="robots">} and the {@code X-Robots-Tag} header
 * (seed 002's robots meta; comma-separated tokens, case-insensitive; {@code none} means both). A
 * directive the header addresses to a user agent ({@code googlebot: noindex}) is obeyed as if it were
 * addressed to every crawler: the cautious reading.
 *
 * @param noindex the page asks not to be indexed
 * @param nofollow the page asks that its links not be followed
 */
record RobotsMeta(boolean noindex, boolean nofollow) {

  static final RobotsMeta NONE = new RobotsMeta(false, false);

  /** The directives of one comma-separated value; tokens other than noindex, nofollow and none are ignored. */
  static RobotsMeta parse(String value) {
    boolean noindex = false;
    boolean nofollow = false;
    for (String token : value.split(",")) {
      String directive = token.strip().toLowerCase(Locale.ROOT);
      // the header may name a user agent first ("googlebot: noindex"); user-agent forms are matched later
      int colon = directive.indexOf(':');
      if (colon >= 0 && !directive.startsWith("unavailable_after")) {
        directive = directive.substring(colon + 1).strip();
      }
      switch (directive) {
        case "noindex" -> noindex = true;
        case "nofollow" -> nofollow = true;
        case "none" -> {
          noindex = true;
          nofollow = true;
        }
        default -> {
          // index, follow, noarchive, ...: nothing the crawler acts on
        }
      }
    }
    return new RobotsMeta(noindex, nofollow);
  }

  RobotsMeta and(RobotsMeta other) {
    return new RobotsMeta(noindex || other.noindex, nofollow || other.nofollow);
  }
}
