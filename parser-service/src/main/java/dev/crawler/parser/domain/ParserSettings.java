package dev.crawler.parser.domain;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the parser is told, free of Kafka: which media types it imports and how much it keeps.
 *
 * @param importedContentTypes the media types imported ({@code type/subtype}, compared lower-case,
 *     without parameters); responses of other types are {@code IMPORT_REJECTED}
 * @param maxTextChars characters of text kept per document, at least 0; the checksum covers all the
 *     text, kept or not
 * @param recentLinks links the parser remembers having sent to the frontier, all its tasks
 *     together, so that a link on many pages (menus, footers) is sent once; 0 sends every link
 *     ({@link RecentLinks})
 * @param robotsAgent the crawler's name in robots directives addressed to one crawler ({@code <meta
 *     name="kafka-crawler">}, {@code X-Robots-Tag: kafka-crawler: noindex}), lower-case: the
 *     product token of the fetcher's user agent
 * @param maxLinkChars the longest link (and canonical, and next page) a page may name, in
 *     characters; longer ones are dropped here, never sent (the frontier's {@code max-url-length}
 *     option judges the shorter ones)
 * @param maxOutlinks links kept per page at most, in the page's order; the others are dropped
 */
public record ParserSettings(
    Set<String> importedContentTypes,
    int maxTextChars,
    int recentLinks,
    String robotsAgent,
    int maxLinkChars,
    int maxOutlinks) {

  /** The robots agent unless configured: the product token of the fetcher's default user agent. */
  public static final String DEFAULT_ROBOTS_AGENT = "kafka-crawler";

  /**
   * The media types imported unless configured otherwise: HTML, XHTML, plain text and XML, read
   * here; PDF, Word, Excel and PowerPoint (both formats of each), OpenDocument text, spreadsheets
   * and presentations, RTF and EPUB, read as files ({@link #isReadAsFile}).
   */
  public static final List<String> DEFAULT_IMPORTED_CONTENT_TYPES =
      List.of(
          "text/html",
          "application/xhtml+xml",
          "text/plain",
          "application/xml",
          "text/xml",
          "application/pdf",
          "application/msword",
          "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          "application/vnd.ms-excel",
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          "application/vnd.ms-powerpoint",
          "application/vnd.openxmlformats-officedocument.presentationml.presentation",
          "application/vnd.oasis.opendocument.text",
          "application/vnd.oasis.opendocument.spreadsheet",
          "application/vnd.oasis.opendocument.presentation",
          "application/rtf",
          "text/rtf",
          "application/epub+zip");

  public static final int DEFAULT_MAX_TEXT_CHARS = 1_000_000;

  public static final int DEFAULT_RECENT_LINKS = 100_000;

  /** The longest link unless configured: browsers and servers rarely take more. */
  public static final int DEFAULT_MAX_LINK_CHARS = 8_192;

  /** Links kept per page unless configured (Nutch's db.max.outlinks.per.page is the precedent). */
  public static final int DEFAULT_MAX_OUTLINKS = 5_000;

  /** The settings a parser has when nothing is configured. */
  public static final ParserSettings DEFAULTS =
      new ParserSettings(
          Set.copyOf(DEFAULT_IMPORTED_CONTENT_TYPES), DEFAULT_MAX_TEXT_CHARS, DEFAULT_RECENT_LINKS);

  /** Settings with the default robots agent and link bounds. */
  public ParserSettings(Set<String> importedContentTypes, int maxTextChars, int recentLinks) {
    this(importedContentTypes, maxTextChars, recentLinks, DEFAULT_ROBOTS_AGENT);
  }

  /** Settings with the default link bounds. */
  public ParserSettings(
      Set<String> importedContentTypes, int maxTextChars, int recentLinks, String robotsAgent) {
    this(
        importedContentTypes,
        maxTextChars,
        recentLinks,
        robotsAgent,
        DEFAULT_MAX_LINK_CHARS,
        DEFAULT_MAX_OUTLINKS);
  }

  /**
   * @throws IllegalArgumentException when a media type is not {@code type/subtype}, or when a
   *     number is negative
   */
  public ParserSettings {
    Set<String> types = new HashSet<>();
    for (String type : importedContentTypes) {
      String mediaType = type.strip().toLowerCase(Locale.ROOT);
      if (!isMediaType(mediaType)) {
        throw new IllegalArgumentException("not a media type (type/subtype): '" + type + "'");
      }
      types.add(mediaType);
    }
    importedContentTypes = Set.copyOf(types);
    if (maxTextChars < 0) {
      throw new IllegalArgumentException("maxTextChars must be at least 0: " + maxTextChars);
    }
    if (recentLinks < 0) {
      throw new IllegalArgumentException("recentLinks must be at least 0: " + recentLinks);
    }
    if (maxLinkChars < 16 || maxOutlinks < 0) {
      throw new IllegalArgumentException(
          "maxLinkChars must be at least 16 and maxOutlinks at least 0: "
              + maxLinkChars
              + ", "
              + maxOutlinks);
    }
    robotsAgent = robotsAgent.strip().toLowerCase(Locale.ROOT);
    if (robotsAgent.isEmpty() || robotsAgent.equals("robots")) {
      throw new IllegalArgumentException(
          "robotsAgent must be a crawler's name: '" + robotsAgent + "'");
    }
  }

  /** Whether responses of this media type (lower-case, without parameters) are imported. */
  public boolean isImported(String mediaType) {
    return importedContentTypes.contains(mediaType);
  }

  /**
   * Whether an imported media type is read as a file, by the {@link FileImporter} (PDF, office
   * formats, RTF, EPUB, any type not below), rather than by the parser itself: HTML and XHTML, XML
   * ({@code …/xml}, {@code …+xml}) and text ({@code text/…} but RTF).
   */
  public static boolean isReadAsFile(String mediaType) {
    boolean readHere =
        mediaType.equals("text/html")
            || mediaType.equals("application/xhtml+xml")
            || mediaType.endsWith("/xml")
            || mediaType.endsWith("+xml")
            || mediaType.startsWith("text/") && !mediaType.equals("text/rtf");
    return !readHere;
  }

  /**
   * Whether the text is a media type without parameters, {@code type/subtype}, neither part empty.
   */
  public static boolean isMediaType(String text) {
    int slash = text.indexOf('/');
    return slash > 0
        && slash < text.length() - 1
        && text.indexOf('/', slash + 1) < 0
        && text.chars().noneMatch(c -> c == ';' || c == ',' || Character.isWhitespace(c));
  }
}
