package dev.crawler.common.url;

import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Puts URLs in the one form the crawler stores and compares them in (RFC 3986 normalization as
 * crawler-commons' {@link BasicURLNormalizer} does it): scheme and host lower-cased, default port
 * dropped, dot segments resolved, percent-encoding made canonical, IDN hosts in ASCII, the fragment
 * removed, an empty path made {@code /}. Two URLs that name the same resource this way compare
 * equal as strings. Thread-safe.
 */
public final class UrlNormalizer {

  private static final BasicURLNormalizer NORMALIZER = new BasicURLNormalizer();

  private UrlNormalizer() {}

  /**
   * The normalized form of an absolute http or https URL.
   *
   * @throws InvalidUrlException when the URL is not absolute, not http(s), or cannot be parsed
   */
  public static String normalize(String url) {
    String trimmed = url.strip();
    if (!isHttp(trimmed)) {
      throw new InvalidUrlException(url, "only http and https URLs are crawled");
    }
    String normalized;
    try {
      normalized = NORMALIZER.filter(trimmed);
    } catch (RuntimeException e) {
      // crawler-commons 1.x reads past the end of some queries (http://a.example/x??): a bad URL,
      // not a failure
      throw new InvalidUrlException(url, "not a valid URL (" + e + ")");
    }
    if (normalized == null) {
      throw new InvalidUrlException(url, "not a valid URL");
    }
    // the origin function is the final judge of host
    // and port (and agrees with the normalizer on them)
    Origin.of(normalized);
    return normalized;
  }

  /** The normalized URL, or empty when it is not a crawlable http(s) URL. */
  public static Optional<String> tryNormalize(String url) {
    try {
      return Optional.of(normalize(url));
    } catch (InvalidUrlException e) {
      return Optional.empty();
    }
  }

  /**
   * Resolves a reference found in a document against the document's base URL (RFC 3986 section 5).
   *
   * @return the absolute URL, or empty when the reference cannot be resolved
   */
  public static Optional<String> resolve(String base, String reference) {
    try {
      return Optional.of(new URI(base).resolve(reference.strip()).toString());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Whether the URL's scheme is http or https (case-insensitive). */
  public static boolean isHttp(String url) {
    String lower =
        url.length() > 8
            ? url.substring(0, 8).toLowerCase(Locale.ROOT)
            : url.toLowerCase(Locale.ROOT);
    return lower.startsWith("http://") || lower.startsWith("https://");
  }
}
