package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.UrlKind;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;

/**
 * Turns a fetched page into a document and its outlinks (seed 001's link detection, seed 002's
 * import, canonical and robots meta).
 *
 * <ul>
 *   <li><b>HTML</b> ({@code text/html}, {@code application/xhtml+xml}, or an undeclared type whose
 *       body starts like HTML) is parsed with jsoup, decoded with the declared charset, else the
 *       one a byte order mark or {@code <meta charset>} names, else UTF-8. Links come from {@code
 *       a[href]} and {@code area[href]} (LINK) and {@code frame[src]} and {@code iframe[src]}
 *       (FRAME), resolved against {@code <base href>} or the page URL; only http and https links
 *       are kept, normalized with {@link UrlNormalizer}, the first of duplicates kept. Images,
 *       scripts and stylesheets are not links. The canonical is {@code <link rel=canonical>}, else
 *       the HTTP {@code Link: <…>; rel="canonical"} header; robots directives come from {@code
 *       <meta name=robots>} and {@code X-Robots-Tag}.
 *   <li><b>XML</b> ({@code …/xml}, {@code …+xml}) is imported as its text content (jsoup's XML
 *       parser); <b>plain text</b> and any other imported type as the body decoded with the
 *       declared charset (else a byte order mark's, else UTF-8). Neither has links; the {@code
 *       Link} header's canonical and {@code X-Robots-Tag} still apply.
 *   <li>Types not imported, empty bodies, binary bodies and anything jsoup cannot read are {@link
 *       ParseResult.Rejected rejected} with a detail saying why.
 * </ul>
 *
 * <p>Thread-safe and stateless: one instance serves every task. No regular expression is compiled
 * and no digest looked up per page, and the body is not copied.
 */
public final class PageParser {

  private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");

  /**
   * A {@code Link} header value naming the canonical, RFC 8288: {@code <uri>; rel="canonical"} or
   * {@code rel=canonical}.
   */
  private static final Pattern CANONICAL_LINK_HEADER =
      Pattern.compile(
          "<([^>]*)>\\s*;[^,<]*?\\brel\\s*=\\s*(?:\"[^\"]*?\\bcanonical\\b[^\"]*\"|canonical\\b)",
          Pattern.CASE_INSENSITIVE);

  /**
   * The anchor text kept per link, in characters: a link wrapped around a whole article is not an
   * anchor.
   */
  static final int MAX_ANCHOR_CHARS = 1_000;

  /** The longest title kept, in characters. */
  static final int MAX_TITLE_CHARS = 2_000;

  /** The longest description kept, in characters. */
  static final int MAX_DESCRIPTION_CHARS = 10_000;

  /** The longest declared language kept, in characters: a tag or a short list of them. */
  static final int MAX_LANGUAGE_CHARS = 100;

  /**
   * Each thread's recently resolved link targets: a stream thread parses page after page of the
   * same sites.
   */
  private static final ThreadLocal<LinkTargets> LINK_TARGETS =
      ThreadLocal.withInitial(() -> new LinkTargets(LinkTargets.DEFAULT_CAPACITY));

  private final ParserSettings settings;
  private final LanguageDetection languages;

  /** A parser detecting languages with this JVM's {@link LanguageDetection#shared() detector}. */
  public PageParser(ParserSettings settings) {
    this.settings = settings;
    this.languages = LanguageDetection.shared();
  }

  /** A parser with {@link ParserSettings#DEFAULTS}. */
  public static PageParser withDefaults() {
    return new PageParser(ParserSettings.DEFAULTS);
  }

  /**
   * Parses the page. Never throws for bad content: a page that cannot be read, whatever the reason,
   * is {@link ParseResult.Rejected} with the reason (an unexpected exception's included).
   */
  public ParseResult parse(Page page) {
    return parse(page, ParseOptions.DEFAULTS);
  }

  /** Parses the page with the options the crawl configuration resolved for its URL. */
  public ParseResult parse(Page page, ParseOptions options) {
    if (page.body().length == 0) {
      return new ParseResult.Rejected("empty body");
    }
    Optional<String> mediaType = page.mediaType();
    if (mediaType.isEmpty()) {
      return new ParseResult.Rejected(
          "no content type, and the body does not start like HTML or XML");
    }
    String type = mediaType.get();
    if (!settings.isImported(type)) {
      return new ParseResult.Rejected("content type " + type + " is not imported");
    }
    if (ParserSettings.isReadAsFile(type)) {
      return new ParseResult.Rejected(
          "content type " + type + " is a file's, imported by the file importer, not as a page");
    }
    if (page.isBinary()) {
      return new ParseResult.Rejected("the body is binary, not " + type + " (it has NUL bytes)");
    }
    try {
      if (HTML_TYPES.contains(type)) {
        return parseHtml(page, type, options);
      }
      if (type.endsWith("/xml") || type.endsWith("+xml")) {
        return parseXml(page, type);
      }
      return parseText(page, type);
    } catch (IOException | RuntimeException e) {
      // jsoup reads any bytes; what is left is a bug or a page nobody foresaw: this page, not the
      // service
      return new ParseResult.Rejected("cannot parse " + type + ": " + e);
    }
  }

  private ParseResult parseHtml(Page page, String type, ParseOptions options) throws IOException {
    // the response's charset, else one the page declares up front; else jsoup looks (BOM, then
    // meta)
    Optional<Charset> charset =
        page.declaredCharset().or(() -> MetaCharset.declaredUpFront(page.body()));
    Document document =
        Jsoup.parse(
            new ByteArrayInputStream(page.body()),
            charset.map(Charset::name).orElse(null),
            page.url());
    HtmlFacts facts = HtmlFacts.of(document, settings.robotsAgent());
    List<Link> links = new ArrayList<>(facts.linkElements.size());
    int[] dropped = new int[1];
    int outlinkCount = links(facts.linkElements, links, dropped);
    String title = cut(collapseWhitespace(document.title()), MAX_TITLE_CHARS);
    Optional<String> canonical =
        Optional.ofNullable(facts.canonicalHref)
            .flatMap(UrlNormalizer::tryNormalize)
            .or(() -> headerCanonical(page))
            .filter(url -> url.length() <= settings.maxLinkChars());
    canonical = canonical.filter(url -> options.acceptsCanonical(normalizedUrl(page), url));
    RobotsMeta robots = facts.robots.and(headerRobots(page));
    Optional<String> nextPage =
        options
            .pagination()
            .flatMap(how -> nextPage(document, how, normalizedUrl(page)))
            .filter(url -> url.length() <= settings.maxLinkChars());
    // everything above is read from the whole page; the text and its checksum from its content
    Element body = document.body();
    Element content =
        body == null
            ? null
            : options.mainContent().contentOf(body, facts.boilerplate, facts.hasMainContent);
    PageText.WithChecksum text =
        content == null
            ? new PageText.WithChecksum(new byte[0], ContentChecksum.of(title, ""))
            : PageText.withChecksum(content, title);
    String checksum = text.checksum();
    if (options.checksumIgnore().isPresent() && content != null) {
      // parts that change on every visit (a clock, a visitor count) are left out of the checksum
      // only
      content.select(options.checksumIgnore().get()).remove();
      checksum = ContentChecksum.of(title, PageText.of(content));
    }
    byte[] utf8Text = truncate(text.utf8Text());
    return new ParseResult.Parsed(
        normalizedUrl(page),
        type,
        document.charset().name(),
        Optional.of(title).filter(t -> !t.isEmpty()),
        Optional.ofNullable(facts.description)
            .map(PageParser::collapseWhitespace)
            .map(description -> cut(description, MAX_DESCRIPTION_CHARS)),
        new ParseResult.Language(
            Optional.ofNullable(facts.language).or(() -> headerLanguage(page)),
            languages.detectUtf8(utf8Text)),
        utf8Text,
        canonical,
        robots.noindex(),
        robots.nofollow(),
        links,
        outlinkCount,
        dropped[0],
        checksum,
        facts.publishedAt(),
        nextPage,
        ParseResult.FileFacts.ofAuthor(
            Optional.ofNullable(facts.author)
                .map(PageParser::collapseWhitespace)
                .map(author -> cut(author, MAX_TITLE_CHARS))));
  }

  /**
   * A file's imported content ({@link FileImporter}) as a parsed document, the same way as a
   * page's: its XHTML's hyperlinks are its links (normalized, bounded and deduplicated as a
   * page's), its text and title give the content checksum, the HTTP {@code Link} header's canonical
   * and {@code X-Robots-Tag} apply; the language declared is the file's own, else the {@code
   * Content-Language} header's, and the date it says it was created is its publication date.
   */
  public ParseResult parseFile(Page page, FileImport.Extracted file) {
    Document document = Jsoup.parse(file.xhtml(), page.url());
    List<Link> links = new ArrayList<>();
    int[] dropped = new int[1];
    int outlinkCount = links(document.select("a[href]"), links, dropped);
    // a PDF's link annotations are its links, not its text
    document.select("div.annotation").remove();
    String title =
        cut(collapseWhitespace(file.title().orElseGet(document::title)), MAX_TITLE_CHARS);
    Element body = document.body();
    PageText.WithChecksum text =
        body == null
            ? new PageText.WithChecksum(new byte[0], ContentChecksum.of(title, ""))
            : PageText.withChecksum(body, title);
    byte[] utf8Text = truncate(text.utf8Text());
    RobotsMeta robots = headerRobots(page);
    return new ParseResult.Parsed(
        normalizedUrl(page),
        file.contentType(),
        StandardCharsets.UTF_8.name(),
        Optional.of(title).filter(t -> !t.isEmpty()),
        Optional.empty(),
        new ParseResult.Language(
            file.language()
                .map(language -> cut(language.strip(), MAX_LANGUAGE_CHARS))
                .filter(language -> !language.isEmpty())
                .or(() -> headerLanguage(page)),
            languages.detectUtf8(utf8Text)),
        utf8Text,
        headerCanonical(page).filter(url -> url.length() <= settings.maxLinkChars()),
        robots.noindex(),
        robots.nofollow(),
        links,
        outlinkCount,
        dropped[0],
        text.checksum(),
        file.createdAt(),
        Optional.empty(),
        new ParseResult.FileFacts(
            file.author()
                .map(PageParser::collapseWhitespace)
                .map(author -> cut(author, MAX_TITLE_CHARS))
                .filter(author -> !author.isEmpty()),
            file.createdAt(),
            file.modifiedAt(),
            file.pageCount()));
  }

  /** The {@code Content-Language} header's value, when the response has a non-blank one. */
  static Optional<String> headerLanguage(Page page) {
    return page.header("Content-Language")
        .map(String::strip)
        .filter(language -> !language.isEmpty())
        .map(language -> cut(language, MAX_LANGUAGE_CHARS));
  }

  /**
   * The next page of a multi-page document: the first {@code <link>} or {@code <a>} with {@code
   * rel=next}, or the first element the selector matches, whose {@code href} resolves to another
   * URL of the page's origin (a next page elsewhere is not part of the same document).
   */
  static Optional<String> nextPage(Document document, String how, String pageUrl) {
    String selector =
        how.equalsIgnoreCase(ParseOptions.REL_NEXT)
            ? "link[rel~=(?i)^next$][href], a[rel~=(?i)^next$][href]"
            : how;
    for (Element element : document.select(selector)) {
      Optional<String> next = UrlNormalizer.tryNormalize(element.absUrl("href"));
      if (next.isPresent() && !next.get().equals(pageUrl) && isSameOrigin(next.get(), pageUrl)) {
        return next;
      }
    }
    return Optional.empty();
  }

  private static boolean isSameOrigin(String url, String other) {
    try {
      return Origin.keyOf(url).equals(Origin.keyOf(other));
    } catch (InvalidUrlException e) {
      return false;
    }
  }

  /**
   * Adds the crawlable links of the elements to {@code links}, first occurrence of each URL only,
   * at most {@code maxOutlinks} of them and none longer than {@code maxLinkChars}, and returns how
   * many crawlable links there were, repeats and dropped ones included.
   */
  private int links(List<Element> elements, List<Link> links, int[] dropped) {
    // pages repeat links (menus, "top" links), and sites repeat them across pages: LinkTargets
    // remembers
    LinkTargets targets = LINK_TARGETS.get();
    Map<String, Link> byUrl = new LinkedHashMap<>();
    int count = 0;
    for (Element element : elements) {
      boolean isFrame = element.nameIs("frame") || element.nameIs("iframe");
      Optional<String> url = targets.of(element, isFrame ? "src" : "href");
      if (url.isEmpty()) {
        continue; // unresolvable against the base; mailto:, javascript:, tel:, ftp:, malformed:
        // nothing to crawl
      }
      count++;
      if (url.get().length() > settings.maxLinkChars()) {
        dropped[0]++; // a link no server would take; as a record, one that could stop the crawl
        continue;
      }
      boolean isNofollow = !isFrame && HtmlFacts.hasToken(element.attr("rel"), "nofollow");
      Link known = byUrl.get(url.get());
      if (known == null && byUrl.size() >= settings.maxOutlinks()) {
        dropped[0]++; // a page with more links than the bound: the first ones are kept
        continue;
      }
      if (known == null) {
        Optional<String> anchor = element.nameIs("a") ? anchor(element) : Optional.empty();
        byUrl.put(
            url.get(),
            new Link(url.get(), isFrame ? UrlKind.FRAME : UrlKind.LINK, anchor, isNofollow));
      } else if (known.isNofollow() && !isNofollow) {
        // followed once is followed: the page links to it without reservation somewhere
        byUrl.put(url.get(), new Link(known.url(), known.kind(), known.anchor(), false));
      }
    }
    links.addAll(byUrl.values());
    return count;
  }

  private static Optional<String> anchor(Element a) {
    String text = PageText.of(a);
    if (text.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(cut(text, MAX_ANCHOR_CHARS));
  }

  private ParseResult parseXml(Page page, String type) throws IOException {
    Document document =
        Jsoup.parse(
            new ByteArrayInputStream(page.body()),
            page.declaredCharset().map(Charset::name).orElse(null),
            page.url(),
            Parser.xmlParser());
    return textDocument(page, type, document.charset(), document.text());
  }

  private ParseResult parseText(Page page, String type) {
    // a byte order mark names the encoding with certainty; else the declared charset, else UTF-8
    byte[] body = page.body();
    if (page.startsWith(Page.UTF_8_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_8,
          new String(body, 3, body.length - 3, StandardCharsets.UTF_8));
    }
    if (page.startsWith(Page.UTF_16_BE_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_16BE,
          new String(body, 2, body.length - 2, StandardCharsets.UTF_16BE));
    }
    if (page.startsWith(Page.UTF_16_LE_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_16LE,
          new String(body, 2, body.length - 2, StandardCharsets.UTF_16LE));
    }
    Charset charset = page.declaredCharset().orElse(StandardCharsets.UTF_8);
    return textDocument(page, type, charset, new String(body, charset));
  }

  /**
   * A document without markup: no title, links or robots meta; the HTTP headers' canonical and
   * robots still count.
   */
  private ParseResult textDocument(Page page, String type, Charset charset, String content) {
    String text = collapseWhitespace(content);
    RobotsMeta robots = headerRobots(page);
    String kept = truncate(text);
    return new ParseResult.Parsed(
        normalizedUrl(page),
        type,
        charset.name(),
        Optional.empty(),
        Optional.empty(),
        new ParseResult.Language(headerLanguage(page), languages.detect(kept)),
        kept.getBytes(StandardCharsets.UTF_8),
        headerCanonical(page),
        robots.noindex(),
        robots.nofollow(),
        List.of(),
        0,
        0,
        ContentChecksum.of("", text),
        Optional.empty(),
        Optional.empty(),
        ParseResult.FileFacts.NONE);
  }

  private static String normalizedUrl(Page page) {
    return UrlNormalizer.tryNormalize(page.url()).orElse(page.url());
  }

  /**
   * The canonical named by the HTTP {@code Link} header, resolved against the page URL and
   * normalized.
   */
  private static Optional<String> headerCanonical(Page page) {
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

  /** The directives of every {@code X-Robots-Tag} header. */
  private RobotsMeta headerRobots(Page page) {
    RobotsMeta robots = RobotsMeta.NONE;
    for (Map.Entry<String, String> header : page.headers().entrySet()) {
      if (header.getKey().equalsIgnoreCase("X-Robots-Tag")) {
        robots = robots.and(RobotsMeta.parseHeader(header.getValue(), settings.robotsAgent()));
      }
    }
    return robots;
  }

  private String truncate(String text) {
    return cut(text, settings.maxTextChars());
  }

  /**
   * {@link #truncate(String)} of a text in UTF-8. A text of no more bytes than the limit has no
   * more characters either, and is kept as it is without being decoded.
   */
  private byte[] truncate(byte[] utf8Text) {
    if (utf8Text.length <= settings.maxTextChars()) {
      return utf8Text;
    }
    String text = new String(utf8Text, StandardCharsets.UTF_8);
    String cut = truncate(text);
    return cut.length() == text.length() ? utf8Text : cut.getBytes(StandardCharsets.UTF_8);
  }

  /** The first {@code max} characters, one fewer when the cut would split a surrogate pair. */
  static String cut(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = max > 0 && Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    return text.substring(0, end);
  }

  /**
   * The content checksum: lower-case hex SHA-256 of the UTF-8 bytes of {@code title + "\n" + text},
   * each whitespace-collapsed ({@link #collapseWhitespace(String)}), so a page that differs only in
   * layout has the same checksum and one that differs in a word has another.
   */
  public static String checksum(String title, String text) {
    return ContentChecksum.of(collapseWhitespace(title), collapseWhitespace(text));
  }

  /**
   * The text with each run of whitespace (space, tab, line feed, vertical tab, form feed, carriage
   * return, no-break space) made one space, and none at either end. Returns the text itself when it
   * is already so, as jsoup's text is.
   */
  public static String collapseWhitespace(String text) {
    if (isCollapsed(text)) {
      return text;
    }
    StringBuilder collapsed = new StringBuilder(text.length());
    boolean pendingSpace = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isWhitespace(c)) {
        pendingSpace = collapsed.length() > 0;
      } else {
        if (pendingSpace) {
          collapsed.append(' ');
          pendingSpace = false;
        }
        collapsed.append(c);
      }
    }
    return collapsed.toString();
  }

  private static boolean isCollapsed(String text) {
    int length = text.length();
    if (length > 0 && (isWhitespace(text.charAt(0)) || isWhitespace(text.charAt(length - 1)))) {
      return false;
    }
    boolean previousSpace = false;
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c == ' ') {
        if (previousSpace) {
          return false;
        }
        previousSpace = true;
      } else if (isWhitespace(c)) {
        return false;
      } else {
        previousSpace = false;
      }
    }
    return true;
  }

  /**
   * Tab, line feed, vertical tab, form feed, carriage return and space, as bits of a mask indexed
   * by the character.
   */
  private static final long ASCII_WHITESPACE =
      1L << '\t' | 1L << '\n' | 1L << 0x0B | 1L << '\f' | 1L << '\r' | 1L << ' ';

  static boolean isWhitespace(char c) {
    // one comparison for the usual character, a letter
    return c <= ' ' ? (ASCII_WHITESPACE & (1L << c)) != 0 : c == '\u00A0';
  }
}
