package dev.crawler.parser.domain;

import dev.crawler.common.url.Site;
import dev.crawler.schemas.options.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The crawl options that steer parsing one URL: a typed view, through the catalogue ({@link
 * RequestOptions}), of the options its fetch request carried (the frontier resolves them from the
 * crawl configuration). A missing or unusable value keeps the default, and so does a selector that
 * jsoup cannot read.
 *
 * @param canonicalWithinDomain a canonical is accepted only within the page's registered domain
 *     (option {@code canonical-scope: domain}, the default; {@code any} accepts any)
 * @param checksumIgnore a CSS selector of the elements left out of the content checksum (option
 *     {@code checksum-ignore}), so a clock in a footer does not make a page look changed
 * @param metadataChecksumHeaders the response headers the metadata checksum covers (option {@code
 *     metadata-checksum}, e.g. {@code etag, last-modified}); none: no metadata checksum
 * @param obeysRobotsMeta whether a page's robots nofollow keeps its links (option {@code
 *     obey-robots-meta}; false is "rogue" mode)
 * @param obeysLinkNofollow option {@code obey-link-nofollow}: whether links marked {@code
 *     rel="nofollow"} are left out
 * @param pagination how a document's next page is found (option {@code pagination}): {@value
 *     #REL_NEXT}, or a CSS selector of the next-page link; empty for single-page documents
 * @param mainContent options {@code content-keep} and {@code content-drop}: the part of a page that
 *     is its content
 * @param detectsLanguage option {@code detect-language}: whether the text's language is detected
 * @param makesMarkdown option {@code markdown}: whether the main content is made markdown
 * @param readsStructuredData option {@code structured-data}: whether JSON-LD, microdata, Open Graph
 *     and Twitter cards are read
 * @param detectsRendering whether a page built by scripts is sent to be rendered (option {@code
 *     render: auto}, for a page fetched over HTTP)
 */
public record ParseOptions(
    boolean canonicalWithinDomain,
    Optional<String> checksumIgnore,
    List<String> metadataChecksumHeaders,
    boolean obeysRobotsMeta,
    boolean obeysLinkNofollow,
    Optional<String> pagination,
    MainContent mainContent,
    boolean detectsLanguage,
    boolean makesMarkdown,
    boolean readsStructuredData,
    boolean detectsRendering) {

  /** The {@code pagination} value that follows {@code <link rel=next>} or {@code <a rel=next>}. */
  public static final String REL_NEXT = "rel=next";

  public static final ParseOptions DEFAULTS =
      new ParseOptions(
          true,
          Optional.empty(),
          List.of(),
          true,
          true,
          Optional.empty(),
          MainContent.DEFAULT,
          true,
          true,
          true,
          false);

  public ParseOptions {
    metadataChecksumHeaders = List.copyOf(metadataChecksumHeaders);
  }

  /** The options a fetch request's option map sets, read through the catalogue. */
  public static ParseOptions of(Map<String, String> options) {
    boolean withinDomain =
        RequestOptions.CANONICAL_SCOPE.readFrom(options) == RequestOptions.CanonicalScope.DOMAIN;
    Optional<String> ignore =
        Optional.of(RequestOptions.CHECKSUM_IGNORE.readFrom(options))
            .filter(selector -> !selector.isEmpty())
            .filter(ParseOptions::isSelector);
    Optional<String> pagination =
        Optional.of(RequestOptions.PAGINATION.readFrom(options))
            .filter(how -> !how.isEmpty())
            .filter(how -> how.equalsIgnoreCase(REL_NEXT) || isSelector(how));
    return new ParseOptions(
        withinDomain,
        ignore,
        RequestOptions.METADATA_CHECKSUM.readFrom(options),
        RequestOptions.OBEY_ROBOTS_META.readFrom(options),
        RequestOptions.OBEY_LINK_NOFOLLOW.readFrom(options),
        pagination,
        MainContent.of(
            RequestOptions.CONTENT_KEEP.readFrom(options),
            RequestOptions.CONTENT_DROP.readFrom(options)),
        RequestOptions.DETECT_LANGUAGE.readFrom(options),
        RequestOptions.MARKDOWN.readFrom(options),
        RequestOptions.STRUCTURED_DATA.readFrom(options),
        RequestOptions.RENDER.readFrom(options) == RequestOptions.Render.AUTO);
  }

  /**
   * These options for a page a browser rendered: never sent to be rendered again, whatever it looks
   * like.
   */
  public ParseOptions rendered() {
    return new ParseOptions(
        canonicalWithinDomain,
        checksumIgnore,
        metadataChecksumHeaders,
        obeysRobotsMeta,
        obeysLinkNofollow,
        pagination,
        mainContent,
        detectsLanguage,
        makesMarkdown,
        readsStructuredData,
        false);
  }

  /**
   * Whether a page at {@code pageUrl} may name {@code canonical}: always, or only when the two
   * share a registered domain.
   */
  public boolean acceptsCanonical(String pageUrl, String canonical) {
    return !canonicalWithinDomain || Site.of(pageUrl).equals(Site.of(canonical));
  }

  private static boolean isSelector(String selector) {
    return MainContent.isSelector(selector);
  }
}
