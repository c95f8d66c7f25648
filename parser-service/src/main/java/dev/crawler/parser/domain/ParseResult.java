package dev.crawler.parser.domain;

import java.util.List;
import java.util.Optional;

/** What parsing a page gave: a document, or a rejection with the reason. */
public sealed interface ParseResult {

  /**
   * A page parsed.
   *
   * @param canonicalUrl the canonical URL the page names (tag or Link header), normalized, when it names
   *     one; may be the page's own URL
   * @param links the outlinks in document order, deduplicated, whether or not the page is nofollow
   *     ({@link #linksToFollow(boolean)} says which are followed)
   * @param outlinkCount the links the page has, followed or not
   * @param contentChecksum lower-case hex SHA-256 of the whitespace-normalized title and text
   * @param publishedAt the publish date the page states, when it states one
   */
  record Parsed(
      Optional<String> title,
      Optional<String> description,
      Optional<String> language,
      String text,
      Optional<String> canonicalUrl,
      boolean noindex,
      boolean nofollow,
      List<Link> links,
      int outlinkCount,
      String contentChecksum,
      Optional<java.time.Instant> publishedAt)
      implements ParseResult {

    /**
     * The links to follow: none on a nofollow page unless robots meta is not obeyed (seed 001's
     * "rogue" mode, option {@code obey-robots-meta: false}).
     */
    public List<Link> linksToFollow(boolean obeyRobotsMeta) {
      return nofollow && obeyRobotsMeta ? List.of() : links;
    }

    /** Whether the page names a canonical URL other than its own: it is not published, the canonical is crawled. */
    public boolean isNonCanonical(String url) {
      return canonicalUrl.isPresent() && !canonicalUrl.get().equals(url);
    }
  }

  /** A page that is not imported; the detail says why. */
  record Rejected(String detail) implements ParseResult {}
}
