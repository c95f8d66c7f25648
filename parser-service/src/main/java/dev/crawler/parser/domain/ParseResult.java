package dev.crawler.parser.domain;

import dev.crawler.common.usage.UsageFindings;
import dev.crawler.events.UrlKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What parsing a page gave: a document, or a rejection with the reason. */
public sealed interface ParseResult {

  /**
   * A page parsed.
   *
   * @param url the page's URL, normalized (what a canonical URL is compared with)
   * @param contentType the media type the page was parsed as: the declared one, else the one
   *     recognized from the body
   * @param charset the charset the body was decoded with (declared, else from a byte order mark or
   *     {@code <meta charset>}, else UTF-8)
   * @param title the title, whitespace collapsed, when the page has a non-blank one
   * @param description the {@code <meta name=description>} content, when non-blank
   * @param language the language the page declares and the one detected in its text
   * @param utf8Text the text, whitespace collapsed, cut at the configured length in characters
   *     (never inside a surrogate pair), in UTF-8 ({@link #text()} as a string): the form it is
   *     hashed and sent in
   * @param canonicalUrl the canonical URL the page names ({@code <link rel=canonical>}, else the
   *     HTTP {@code Link} header), resolved and normalized; may be the page's own URL
   * @param noindex {@code <meta name=robots>} or {@code X-Robots-Tag} says noindex (or none)
   * @param nofollow {@code <meta name=robots>} or {@code X-Robots-Tag} says nofollow (or none)
   * @param links the outlinks in document order, deduplicated (the first occurrence wins), whether
   *     or not the page is nofollow ({@link #discoveries(int, boolean)} says which are followed)
   * @param outlinkCount the crawlable links the page has, repeats included, followed or not
   * @param contentChecksum lower-case hex SHA-256 of the title and the whole text, whitespace
   *     collapsed ({@link PageParser#checksum(String, String)})
   * @param publishedAt the publish date the page states, when it states one ({@link PublishDates})
   * @param nextPage the next page of the same document (option {@code pagination}), normalized and
   *     on the page's origin; empty on the last page or without pagination
   * @param file what a file (a PDF, an office document) says of itself: author, dates, pages; an
   *     HTML page's author meta
   * @param dropped the links left out at a bound, each to be told in the crawl log
   * @param extras what the document carries for search and retrieval: markdown, structured data,
   *     usage preferences
   */
  record Parsed(
      String url,
      String contentType,
      String charset,
      Optional<String> title,
      Optional<String> description,
      Language language,
      byte[] utf8Text,
      Optional<String> canonicalUrl,
      boolean noindex,
      boolean nofollow,
      List<Link> links,
      int outlinkCount,
      DroppedLinks dropped,
      String contentChecksum,
      Optional<Instant> publishedAt,
      Optional<String> nextPage,
      FileFacts file,
      Extras extras)
      implements ParseResult {

    public Parsed {
      links = List.copyOf(links);
    }

    /** The text ({@link #utf8Text}) as a string. */
    public String text() {
      return new String(utf8Text, StandardCharsets.UTF_8);
    }

    /**
     * Whether the page names a canonical URL other than its own: it is not published, and its
     * canonical is crawled instead (REJECTED_NONCANONICAL).
     */
    public boolean isNonCanonical() {
      return canonicalUrl.isPresent() && !canonicalUrl.get().equals(url);
    }

    /**
     * This page with a canonical that points back into the redirects followed to reach it counted
     * as its own (no loop: the page is not non-canonical because of a URL that redirected to it).
     */
    public Parsed withRedirectsAsSelf(List<String> redirectChain) {
      if (canonicalUrl.isEmpty() || !redirectChain.contains(canonicalUrl.get())) {
        return this;
      }
      return new Parsed(
          url,
          contentType,
          charset,
          title,
          description,
          language,
          utf8Text,
          Optional.of(url),
          noindex,
          nofollow,
          links,
          outlinkCount,
          dropped,
          contentChecksum,
          publishedAt,
          nextPage,
          file,
          extras);
    }

    /**
     * Whether the page's nofollow keeps its links from being followed: it says nofollow and robots
     * meta is obeyed (false is "rogue" mode, option {@code obey-robots-meta: false}).
     */
    public boolean isNofollowObeyed(boolean obeyRobotsMeta) {
      return nofollow && obeyRobotsMeta;
    }

    /**
     * The URLs this page, {@code depth} hops from a seed, makes known to the frontier:
     *
     * <ul>
     *   <li>a non-canonical page: only its canonical, at the page's depth (its own links are the
     *       canonical page's links, followed when that page is parsed);
     *   <li>a nofollow page, robots meta obeyed: nothing;
     *   <li>any other page: its links, at {@code depth + 1}.
     * </ul>
     */
    public List<Discovery> discoveries(int depth, boolean obeyRobotsMeta) {
      return discoveries(depth, obeyRobotsMeta, false);
    }

    /**
     * As {@link #discoveries(int, boolean)}, leaving out the links marked {@code rel="nofollow"}
     * when {@code obeyLinkNofollow}.
     */
    public List<Discovery> discoveries(
        int depth, boolean obeyRobotsMeta, boolean obeyLinkNofollow) {
      if (isNonCanonical()) {
        return List.of(
            new Discovery(canonicalUrl.get(), UrlKind.CANONICAL, depth, Optional.empty()));
      }
      if (isNofollowObeyed(obeyRobotsMeta)) {
        return List.of();
      }
      List<Discovery> discoveries = new ArrayList<>(links.size());
      for (Link link : links) {
        if (obeyLinkNofollow && link.isNofollow()) {
          continue;
        }
        discoveries.add(new Discovery(link.url(), link.kind(), depth + 1, link.anchor()));
      }
      return discoveries;
    }
  }

  /**
   * A document's language: the one it declares ({@code <html lang>}, the {@code Content-Language}
   * header, a file's own metadata), as declared, and the one detected in its text ({@link
   * LanguageDetection}), when the detector is certain enough.
   */
  record Language(Optional<String> declared, Optional<String> detected) {

    public static final Language UNKNOWN = new Language(Optional.empty(), Optional.empty());

    /**
     * The language published: the detected one, else the declared one, which also stands against a
     * detected one it cannot check ({@link LanguageDetection#combine}).
     */
    public Optional<String> best() {
      return LanguageDetection.combine(declared, detected);
    }
  }

  /**
   * What a document says of itself beyond its title: its author, and for a file (PDF, office,
   * OpenDocument) its own dates and page count.
   */
  record FileFacts(
      Optional<String> author,
      Optional<Instant> createdAt,
      Optional<Instant> modifiedAt,
      Optional<Integer> pageCount) {

    public static final FileFacts NONE =
        new FileFacts(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Facts naming only an author, when there is one. */
    public static FileFacts ofAuthor(Optional<String> author) {
      return author.isEmpty()
          ? NONE
          : new FileFacts(author, Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  /**
   * What a document carries for search and retrieval beyond its text.
   *
   * @param markdown its main content as markdown, when made (option {@code markdown})
   * @param structuredData the structured data it publishes, when read (option {@code
   *     structured-data})
   * @param usage what the document itself states about the uses of its content (meta tags and
   *     response headers); robots.txt's and tdmrep.json's statements come with the fetch result
   */
  record Extras(
      Optional<PageMarkdown> markdown,
      Optional<StructuredData> structuredData,
      UsageFindings usage) {

    public static final Extras NONE =
        new Extras(Optional.empty(), Optional.empty(), UsageFindings.NONE);
  }

  /**
   * A page that only sends its reader elsewhere: a {@code <meta http-equiv="refresh">} or a {@code
   * Refresh} header to another URL within {@link Refresh#MAX_REDIRECT_DELAY_SECONDS}. Recorded as a
   * redirect, its target discovered; not a document.
   *
   * @param target the URL it sends to, resolved and normalized
   * @param detail how, for the crawl log ({@code meta refresh after 0 s})
   */
  record Redirected(String target, String detail) implements ParseResult {}

  /**
   * A page built by its scripts, fetched over HTTP under {@code render: auto}: it is rendered
   * instead ({@link RenderingNeed}); not a document.
   */
  record NeedsRendering(String reason) implements ParseResult {}

  /** A page that is not imported (REJECTED_IMPORT); the detail says why. */
  record Rejected(String detail) implements ParseResult {}
}
