package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.common.usage.UsageFindings;
import dev.crawler.common.usage.UsageHeaders;
import dev.crawler.common.usage.UsageMeta;
import dev.crawler.events.UrlKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.jspecify.annotations.Nullable;

/**
 * Turns a fetched page into a document and its outlinks (link detection, import, canonical and
 * robots meta).
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
 * <p>This class decides how a page is read and builds the parsed document from what the others
 * find: {@link HtmlFacts} reads an HTML page's elements, {@link Outlinks} its links, {@link
 * HeaderFacts} the response's headers and {@link PageText} the text; {@link CollapsedText}
 * collapses and cuts text.
 *
 * <p>Thread-safe and stateless: one instance serves every task. No regular expression is compiled
 * and no digest looked up per page, and the body is not copied.
 */
public final class PageParser {

  private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");

  /** The longest title kept, in characters. */
  static final int MAX_TITLE_CHARS = 2_000;

  /** The longest description kept, in characters. */
  static final int MAX_DESCRIPTION_CHARS = 10_000;

  /** The longest declared language kept, in characters: a tag or a short list of them. */
  static final int MAX_LANGUAGE_CHARS = 100;

  private final ParserSettings settings;
  private final LanguageDetection languages;
  private final Outlinks outlinks;

  /** A parser detecting languages with this JVM's {@link LanguageDetection#shared() detector}. */
  public PageParser(ParserSettings settings) {
    this.settings = settings;
    this.languages = LanguageDetection.shared();
    this.outlinks = new Outlinks(settings);
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
        return parseXml(page, type, options);
      }
      return parseText(page, type, options);
    } catch (IOException | RuntimeException e) {
      // jsoup reads any bytes; what is left is a bug or a page nobody foresaw:
      // this page fails, not the service
      return new ParseResult.Rejected("cannot parse " + type + ": " + e);
    }
  }

  private ParseResult parseHtml(Page page, String type, ParseOptions options) throws IOException {
    // the response's charset, else UTF-8 when jsoup's own detection would certainly come to it;
    // else jsoup looks for one (a byte order mark, then meta)
    Optional<Charset> charset =
        page.declaredCharset().or(() -> MetaCharset.certainlyUtf8(page.body()));
    Document document =
        Jsoup.parse(
            new ByteArrayInputStream(page.body()),
            charset.map(Charset::name).orElse(null),
            page.url());
    HtmlFacts facts = HtmlFacts.of(document, settings.robotsAgent());
    Optional<ParseResult> signpost = refreshRedirect(page, document.baseUri(), facts.refresh);
    if (signpost.isPresent()) {
      return signpost.get();
    }
    List<Link> links = new ArrayList<>(facts.linkElements.size());
    DroppedLinks.Collector dropped = new DroppedLinks.Collector();
    int outlinkCount = outlinks.collect(facts.linkElements, links, dropped);
    refreshLink(page, document.baseUri(), facts.refresh).ifPresent(links::add);
    String title =
        CollapsedText.cut(CollapsedText.collapseWhitespace(document.title()), MAX_TITLE_CHARS);
    Optional<String> canonical =
        Optional.ofNullable(facts.canonicalHref)
            .flatMap(UrlNormalizer::tryNormalize)
            .or(() -> HeaderFacts.canonical(page))
            .filter(url -> url.length() <= settings.maxLinkChars());
    canonical = canonical.filter(url -> options.acceptsCanonical(normalizedUrl(page), url));
    RobotsMeta robots = facts.robots.and(HeaderFacts.robots(page, settings.robotsAgent()));
    Optional<String> nextPage =
        options
            .pagination()
            .flatMap(how -> Outlinks.nextPage(document, how, normalizedUrl(page)))
            .filter(url -> url.length() <= settings.maxLinkChars());
    // read before the main content's options drop anything from the tree
    Optional<StructuredData> structured =
        options.readsStructuredData()
            ? Optional.of(
                StructuredData.of(
                    document, facts.jsonLdScripts, facts.namedMetas, facts.itemScopes))
            : Optional.empty();
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
    if (options.detectsRendering()) {
      Optional<String> need = RenderingNeed.of(facts, text.utf8Text().length, outlinkCount);
      if (need.isPresent()) {
        return new ParseResult.NeedsRendering(need.get());
      }
    }
    Optional<PageMarkdown> markdown =
        options.makesMarkdown() && content != null
            ? Optional.of(PageMarkdown.of(content, document.baseUri(), maxMarkdownChars()))
            : Optional.empty();
    String checksum = text.checksum();
    if (options.checksumIgnore().isPresent() && content != null) {
      // parts that change on every visit (a clock, a visitor count): out of the checksum only
      content.select(options.checksumIgnore().get()).remove();
      checksum = ContentChecksum.of(title, PageText.of(content));
    }
    byte[] utf8Text = CollapsedText.cutUtf8(text.utf8Text(), settings.maxTextChars());
    return new ParseResult.Parsed(
        normalizedUrl(page),
        type,
        document.charset().name(),
        Optional.of(title).filter(t -> !t.isEmpty()),
        Optional.ofNullable(facts.description)
            .map(CollapsedText::collapseWhitespace)
            .map(description -> CollapsedText.cut(description, MAX_DESCRIPTION_CHARS)),
        new ParseResult.Language(
            Optional.ofNullable(facts.language).or(() -> HeaderFacts.language(page)),
            options.detectsLanguage() ? languages.detectUtf8(utf8Text) : Optional.empty()),
        utf8Text,
        canonical,
        robots.noindex(),
        robots.nofollow(),
        links,
        outlinkCount,
        dropped.result(),
        checksum,
        // a JSON-LD datePublished and author only when the page states no other
        facts.publishedAt().or(() -> structured.flatMap(StructuredData::publishedAt)),
        nextPage,
        ParseResult.FileFacts.ofAuthor(
            Optional.ofNullable(facts.author)
                .or(() -> structured.flatMap(data -> data.authors().stream().findFirst()))
                .map(CollapsedText::collapseWhitespace)
                .map(author -> CollapsedText.cut(author, MAX_TITLE_CHARS))),
        new ParseResult.Extras(
            markdown,
            structured,
            UsageFindings.NONE
                .and(UsageMeta.read(facts.usageMetas, settings.robotsAgent()))
                .and(UsageHeaders.read(page.headers(), settings.robotsAgent()))));
  }

  /** The most characters of markdown kept: the text's bound, and room for its syntax. */
  int maxMarkdownChars() {
    return settings.maxTextChars() > Integer.MAX_VALUE / 2
        ? Integer.MAX_VALUE
        : 2 * settings.maxTextChars();
  }

  /**
   * The page as a redirect, when it is a signpost: a refresh (its meta tag, else its {@code
   * Refresh} header) to another URL within {@link Refresh#MAX_REDIRECT_DELAY_SECONDS}.
   */
  private Optional<ParseResult> refreshRedirect(Page page, String base, @Nullable String meta) {
    Optional<Refresh> refresh = refreshOf(page, meta);
    if (refresh.isEmpty() || !refresh.get().isRedirect()) {
      return Optional.empty();
    }
    return refreshTarget(page, base, refresh.get())
        .map(
            target ->
                new ParseResult.Redirected(
                    target,
                    refresh.get().describe(meta != null ? "meta refresh" : "Refresh header")
                        + " to "
                        + target));
  }

  /** The target of a later refresh, as a link of the page. */
  private Optional<Link> refreshLink(Page page, String base, @Nullable String meta) {
    return refreshOf(page, meta)
        .flatMap(refresh -> refreshTarget(page, base, refresh))
        .map(target -> new Link(target, UrlKind.LINK, Optional.empty(), false));
  }

  private static Optional<Refresh> refreshOf(Page page, @Nullable String meta) {
    return meta != null ? Refresh.parse(meta) : page.header("Refresh").flatMap(Refresh::parse);
  }

  /** Where a refresh sends: resolved, normalized, within the link bound, not the page itself. */
  private Optional<String> refreshTarget(Page page, String base, Refresh refresh) {
    return refresh
        .url()
        .map(url -> new BaseUrl(base).resolve(url))
        .flatMap(UrlNormalizer::tryNormalize)
        .filter(url -> url.startsWith("http://") || url.startsWith("https://"))
        .filter(url -> url.length() <= settings.maxLinkChars())
        .filter(url -> !url.equals(normalizedUrl(page)));
  }

  /**
   * A file's imported content ({@link FileImporter}) as a parsed document, the same way as a
   * page's: its XHTML's hyperlinks are its links (normalized, bounded and deduplicated as a
   * page's), its text and title give the content checksum, the HTTP {@code Link} header's canonical
   * and {@code X-Robots-Tag} apply; the language declared is the file's own, else the {@code
   * Content-Language} header's, and the date it says it was created is its publication date.
   */
  public ParseResult parseFile(Page page, FileImport.Extracted file) {
    return parseFile(page, file, ParseOptions.DEFAULTS);
  }

  /** A file's imported content as a parsed document, with the options resolved for its URL. */
  public ParseResult parseFile(Page page, FileImport.Extracted file, ParseOptions options) {
    Document document = Jsoup.parse(file.xhtml(), page.url());
    List<Link> links = new ArrayList<>();
    DroppedLinks.Collector dropped = new DroppedLinks.Collector();
    int outlinkCount = outlinks.collect(document.select("a[href]"), links, dropped);
    // a PDF's link annotations are its links, not its text
    document.select("div.annotation").remove();
    String title =
        CollapsedText.cut(
            CollapsedText.collapseWhitespace(file.title().orElseGet(document::title)),
            MAX_TITLE_CHARS);
    Element body = document.body();
    PageText.WithChecksum text =
        body == null
            ? new PageText.WithChecksum(new byte[0], ContentChecksum.of(title, ""))
            : PageText.withChecksum(body, title);
    byte[] utf8Text = CollapsedText.cutUtf8(text.utf8Text(), settings.maxTextChars());
    RobotsMeta robots = HeaderFacts.robots(page, settings.robotsAgent());
    Optional<PageMarkdown> markdown =
        body == null || !options.makesMarkdown()
            ? Optional.empty()
            : Optional.of(PageMarkdown.of(body, page.url(), maxMarkdownChars()));
    return new ParseResult.Parsed(
        normalizedUrl(page),
        file.contentType(),
        StandardCharsets.UTF_8.name(),
        Optional.of(title).filter(t -> !t.isEmpty()),
        Optional.empty(),
        new ParseResult.Language(
            file.language()
                .map(language -> CollapsedText.cut(language.strip(), MAX_LANGUAGE_CHARS))
                .filter(language -> !language.isEmpty())
                .or(() -> HeaderFacts.language(page)),
            options.detectsLanguage() ? languages.detectUtf8(utf8Text) : Optional.empty()),
        utf8Text,
        HeaderFacts.canonical(page).filter(url -> url.length() <= settings.maxLinkChars()),
        robots.noindex(),
        robots.nofollow(),
        links,
        outlinkCount,
        dropped.result(),
        text.checksum(),
        file.createdAt(),
        Optional.empty(),
        new ParseResult.FileFacts(
            file.author()
                .map(CollapsedText::collapseWhitespace)
                .map(author -> CollapsedText.cut(author, MAX_TITLE_CHARS))
                .filter(author -> !author.isEmpty()),
            file.createdAt(),
            file.modifiedAt(),
            file.pageCount()),
        new ParseResult.Extras(
            markdown, Optional.empty(), UsageHeaders.read(page.headers(), settings.robotsAgent())));
  }

  private ParseResult parseXml(Page page, String type, ParseOptions options) throws IOException {
    Document document =
        Jsoup.parse(
            new ByteArrayInputStream(page.body()),
            page.declaredCharset().map(Charset::name).orElse(null),
            page.url(),
            Parser.xmlParser());
    return textDocument(page, type, document.charset(), document.text(), options);
  }

  private ParseResult parseText(Page page, String type, ParseOptions options) {
    // a byte order mark names the encoding with certainty; else the declared charset, else UTF-8
    byte[] body = page.body();
    if (page.startsWith(Page.UTF_8_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_8,
          new String(body, 3, body.length - 3, StandardCharsets.UTF_8),
          options);
    }
    if (page.startsWith(Page.UTF_16_BE_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_16BE,
          new String(body, 2, body.length - 2, StandardCharsets.UTF_16BE),
          options);
    }
    if (page.startsWith(Page.UTF_16_LE_BOM)) {
      return textDocument(
          page,
          type,
          StandardCharsets.UTF_16LE,
          new String(body, 2, body.length - 2, StandardCharsets.UTF_16LE),
          options);
    }
    Charset charset = page.declaredCharset().orElse(StandardCharsets.UTF_8);
    return textDocument(page, type, charset, new String(body, charset), options);
  }

  /**
   * A document without markup: no title, links or robots meta; the HTTP headers' canonical and
   * robots still count.
   */
  private ParseResult textDocument(
      Page page, String type, Charset charset, String content, ParseOptions options) {
    String text = CollapsedText.collapseWhitespace(content);
    RobotsMeta robots = HeaderFacts.robots(page, settings.robotsAgent());
    String kept = CollapsedText.cut(text, settings.maxTextChars());
    return new ParseResult.Parsed(
        normalizedUrl(page),
        type,
        charset.name(),
        Optional.empty(),
        Optional.empty(),
        new ParseResult.Language(
            HeaderFacts.language(page),
            options.detectsLanguage() ? languages.detect(kept) : Optional.empty()),
        kept.getBytes(StandardCharsets.UTF_8),
        HeaderFacts.canonical(page),
        robots.noindex(),
        robots.nofollow(),
        List.of(),
        0,
        DroppedLinks.NONE,
        ContentChecksum.of("", text),
        Optional.empty(),
        Optional.empty(),
        ParseResult.FileFacts.NONE,
        new ParseResult.Extras(
            Optional.empty(),
            Optional.empty(),
            UsageHeaders.read(page.headers(), settings.robotsAgent())));
  }

  private static String normalizedUrl(Page page) {
    return UrlNormalizer.tryNormalize(page.url()).orElse(page.url());
  }

  /**
   * The content checksum: lower-case hex SHA-256 of the UTF-8 bytes of {@code title + "\n" + text},
   * each whitespace-collapsed ({@link #collapseWhitespace(String)}), so a page that differs only in
   * layout has the same checksum and one that differs in a word has another.
   */
  public static String checksum(String title, String text) {
    return ContentChecksum.of(
        CollapsedText.collapseWhitespace(title), CollapsedText.collapseWhitespace(text));
  }

  /**
   * The text with each run of whitespace (space, tab, line feed, vertical tab, form feed, carriage
   * return, no-break space) made one space, and none at either end. Returns the text itself when it
   * is already so, as jsoup's text is.
   */
  public static String collapseWhitespace(String text) {
    return CollapsedText.collapseWhitespace(text);
  }
}
