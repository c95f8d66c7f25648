package dev.crawler.parser.domain;

import dev.crawler.common.url.RegisteredDomain;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jsoup.select.Selector;

/**
 * The crawl options that steer parsing one URL, read from the options its fetch request carried
 * (the frontier resolves them from the crawl configuration). A missing or unusable value keeps the
 * default.
 *
 * @param canonicalWithinDomain a canonical is accepted only within the page's registered domain
 *     (option {@code canonical-scope: domain}, the default; {@code any} accepts any)
 * @param checksumIgnore a CSS selector of the elements left out of the content checksum (option
 *     {@code checksum-ignore}), so a clock in a footer does not make a page look changed
 * @param metadataChecksumHeaders the response headers the metadata checksum covers (option {@code
 *     metadata-checksum}, e.g. {@code etag, last-modified}); none: no metadata checksum
 * @param obeysRobotsMeta whether a page's robots nofollow keeps its links (option {@code
 *     obey-robots-meta}; false is seed 001's "rogue" mode)
 * @param obeysLinkNofollow whether links marked {@code rel="nofollow"} are left out (option {@code
 *     obey-link-nofollow})
 * @param pagination how a document's next page is found (option {@code pagination}): {@value
 *     #REL_NEXT}, or a CSS selector of the next-page link; empty for single-page documents
 */
public record ParseOptions(
    boolean canonicalWithinDomain,
    Optional<String> checksumIgnore,
    List<String> metadataChecksumHeaders,
    boolean obeysRobotsMeta,
    boolean obeysLinkNofollow,
    Optional<String> pagination) {

  public static final String CANONICAL_SCOPE = "canonical-scope";
  public static final String CHECKSUM_IGNORE = "checksum-ignore";
  public static final String METADATA_CHECKSUM = "metadata-checksum";
  public static final String OBEY_ROBOTS_META = "obey-robots-meta";
  public static final String OBEY_LINK_NOFOLLOW = "obey-link-nofollow";
  public static final String PAGINATION = "pagination";

  /** The {@code pagination} value that follows {@code <link rel=next>} or {@code <a rel=next>}. */
  public static final String REL_NEXT = "rel=next";

  public static final ParseOptions DEFAULTS =
      new ParseOptions(true, Optional.empty(), List.of(), true, true, Optional.empty());

  public ParseOptions {
    metadataChecksumHeaders = List.copyOf(metadataChecksumHeaders);
  }

  /** The options a fetch request's option map sets. */
  public static ParseOptions of(Map<String, String> options) {
    boolean withinDomain =
        !"any".equalsIgnoreCase(options.getOrDefault(CANONICAL_SCOPE, "domain").strip());
    Optional<String> ignore =
        Optional.ofNullable(options.get(CHECKSUM_IGNORE))
            .map(String::strip)
            .filter(selector -> !selector.isEmpty())
            .filter(ParseOptions::isSelector);
    List<String> headers = new ArrayList<>();
    for (String header : options.getOrDefault(METADATA_CHECKSUM, "").split("[,\\s]+")) {
      if (!header.isBlank()) {
        headers.add(header.strip().toLowerCase(Locale.ROOT));
      }
    }
    Optional<String> pagination =
        Optional.ofNullable(options.get(PAGINATION))
            .map(String::strip)
            .filter(how -> !how.isEmpty())
            .filter(how -> how.equalsIgnoreCase(REL_NEXT) || isSelector(how));
    return new ParseOptions(
        withinDomain,
        ignore,
        headers,
        isNotFalse(options.get(OBEY_ROBOTS_META)),
        isNotFalse(options.get(OBEY_LINK_NOFOLLOW)),
        pagination);
  }

  /**
   * Whether a page at {@code pageUrl} may name {@code canonical}: always, or within its registered
   * domain.
   */
  public boolean acceptsCanonical(String pageUrl, String canonical) {
    return !canonicalWithinDomain || registeredDomain(pageUrl).equals(registeredDomain(canonical));
  }

  private static boolean isNotFalse(@org.jspecify.annotations.Nullable String value) {
    return value == null || !value.strip().equalsIgnoreCase("false");
  }

  private static String registeredDomain(String url) {
    try {
      String host = URI.create(url).getHost();
      return host == null ? "" : RegisteredDomain.of(host);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private static boolean isSelector(String selector) {
    try {
      Selector.evaluatorOf(selector);
      return true;
    } catch (Selector.SelectorParseException e) {
      return false;
    }
  }
}
