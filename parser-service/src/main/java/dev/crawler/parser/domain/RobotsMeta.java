package dev.crawler.parser.domain;

import java.util.Locale;
import java.util.Set;

/**
 * The robots directives of a page, from {@code <meta name="robots">} and the {@code X-Robots-Tag}
 * header (robots meta; comma-separated tokens, case-insensitive; {@code none} means both),
 * including the forms addressed to one crawler, ours being named by the parser's robots agent:
 * {@code <meta name="googlebot">} and {@code X-Robots-Tag: googlebot: noindex} apply only to the
 * crawler of that name.
 *
 * @param noindex the page asks not to be indexed
 * @param nofollow the page asks that its links not be followed
 */
record RobotsMeta(boolean noindex, boolean nofollow) {

  static final RobotsMeta NONE = new RobotsMeta(false, false);

  /**
   * Directives whose value follows a colon, which a leading user agent must not be confused with.
   */
  private static final Set<String> DIRECTIVES_WITH_VALUES =
      Set.of("unavailable_after", "max-snippet", "max-image-preview", "max-video-preview");

  /** The directives of a meta tag's content, all addressed to one audience. */
  static RobotsMeta parse(String value) {
    boolean noindex = false;
    boolean nofollow = false;
    for (String token : value.split(",")) {
      String directive = token.strip().toLowerCase(Locale.ROOT);
      switch (directive) {
        case "noindex" -> noindex = true;
        case "nofollow" -> nofollow = true;
        case "none" -> {
          noindex = true;
          nofollow = true;
        }
        default -> {
          // index, follow, noarchive, max-snippet:…: nothing the crawler acts on
        }
      }
    }
    return new RobotsMeta(noindex, nofollow);
  }

  /**
   * The directives of an {@code X-Robots-Tag} value for the crawler named {@code agent}: a value
   * starting with a user agent ({@code googlebot: noindex, nofollow}) applies to that one only.
   */
  static RobotsMeta parseHeader(String value, String agent) {
    String text = value.strip();
    int colon = text.indexOf(':');
    if (colon > 0) {
      String first = text.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      boolean isAgent =
          !first.isEmpty()
              && first.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_')
              && !DIRECTIVES_WITH_VALUES.contains(first)
              && !first.contains(",");
      if (isAgent) {
        return first.equals(agent) ? parse(text.substring(colon + 1)) : NONE;
      }
    }
    return parse(text);
  }

  /**
   * Whether a meta tag of this name speaks to the crawler named {@code agent}: {@code robots}, or
   * its own name.
   */
  static boolean isAddressedTo(String metaName, String agent) {
    String name = metaName.strip().toLowerCase(Locale.ROOT);
    return name.equals("robots") || name.equals(agent);
  }

  RobotsMeta and(RobotsMeta other) {
    return new RobotsMeta(noindex || other.noindex, nofollow || other.nofollow);
  }
}
