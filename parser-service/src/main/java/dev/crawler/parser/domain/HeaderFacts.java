package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the parser reads from a response's HTTP headers, whatever the page's type: the canonical the
 * {@code Link} header names, the robots directives of {@code X-Robots-Tag} and the language of
 * {@code Content-Language}. An HTML page's own {@code <link rel=canonical>}, robots meta and {@code
 * lang} ({@link HtmlFacts}) come first or add to these.
 *
 * <p>Stateless; the pattern is compiled once.
 */
final class HeaderFacts {

  /**
   * A {@code Link} header value naming the canonical, RFC 8288: {@code <uri>; rel="canonical"} or
   * {@code rel=canonical}, among other parameters and links.
   */
  private static final Pattern CANONICAL_LINK_HEADER =
      Pattern.compile(
          "<([^>]*)>\\s*;[^,<]*?\\brel\\s*=\\s*(?:\"[^\"]*?\\bcanonical\\b[^\"]*\"|canonical\\b)",
          Pattern.CASE_INSENSITIVE);

  private HeaderFacts() {}

  /** The canonical the {@code Link} header names, resolved against the page URL and normalized. */
  static Optional<String> canonical(Page page) {
    Optional<String> header = page.header("Link");
    if (header.isEmpty()) {
      return Optional.empty();
    }
    Matcher matcher = CANONICAL_LINK_HEADER.matcher(header.get());
    while (matcher.find()) {
      Optional<String> url =
          UrlNormalizer.resolve(page.url(), matcher.group(1)).flatMap(UrlNormalizer::tryNormalize);
      if (url.isPresent()) {
        return url;
      }
    }
    return Optional.empty();
  }

  /** The directives of every {@code X-Robots-Tag} header for the crawler named {@code agent}. */
  static RobotsMeta robots(Page page, String agent) {
    RobotsMeta robots = RobotsMeta.NONE;
    for (Map.Entry<String, String> header : page.headers().entrySet()) {
      if (header.getKey().equalsIgnoreCase("X-Robots-Tag")) {
        robots = robots.and(RobotsMeta.parseHeader(header.getValue(), agent));
      }
    }
    return robots;
  }

  /**
   * The {@code Content-Language} header's value, when the response has a non-blank one, cut to the
   * length a declared language is kept at ({@link PageParser#MAX_LANGUAGE_CHARS}).
   */
  static Optional<String> language(Page page) {
    return page.header("Content-Language")
        .map(String::strip)
        .filter(language -> !language.isEmpty())
        .map(language -> CollapsedText.cut(language, PageParser.MAX_LANGUAGE_CHARS));
  }
}
