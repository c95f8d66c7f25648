package dev.crawler.parser.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.UrlKind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
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
 * Turns a fetched page into a document and its outlinks (DESIGN.md section 2; seed 001's link
 * detection, seed 002's import, seed 003's canonical and robots meta). HTML is parsed with jsoup: links
 * from {@code a[href]}, {@code area[href]}, {@code frame[src]} and {@code iframe[src]} resolved against
 * {@code <base href>} or the page URL; the canonical from {@code <link rel=canonical>} or the HTTP
 * {@code Link} header; robots directives from {@code <meta name=robots>} and {@code X-Robots-Tag}. Plain
 * text and XML are imported as text without links; other types are rejected. Thread-safe.
 */
public final class PageParser {

  /** The content types imported unless configured otherwise. */
  public static final List<String> DEFAULT_IMPORTED_TYPES = List.of("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml");

  private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final Pattern CANONICAL_LINK_HEADER = Pattern.compile("<([^>]*)>\\s*;[^,]*\\brel\\s*=\\s*\"?canonical\"?", Pattern.CASE_INSENSITIVE);
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(PageParser::sha256);

  private final Set<String> importedTypes;
  private final int maxTextChars;

  /**
   * @param importedTypes the media types imported (lower-case, without parameters)
   * @param maxTextChars the text kept per document, in characters
   */
  public PageParser(Set<String> importedTypes, int maxTextChars) {
    this.importedTypes = Set.copyOf(importedTypes);
    this.maxTextChars = maxTextChars;
  }

  /** Parses the page; never throws for bad content: what cannot be read is {@link ParseResult.Rejected}. */
  public ParseResult parse(Page page) {
    String type = page.effectiveContentType();
    if (!importedTypes.contains(type)) {
      return new ParseResult.Rejected("content type " + type + " is not imported");
    }
    if (page.body().length == 0) {
      return new ParseResult.Rejected("empty body");
    }
    try {
      if (HTML_TYPES.contains(type)) {
        return parseHtml(page);
      }
      if (type.equals("text/plain")) {
        return text(page, Optional.empty(), decode(page));
      }
      Document xml = Jsoup.parse(new ByteArrayInputStream(page.body()), page.charset().orElse(null), page.url(), Parser.xmlParser());
      return text(page, Optional.empty(), xml.text());
    } catch (IOException | RuntimeException e) {
      return new ParseResult.Rejected("cannot parse " + type + ": " + e);
    }
  }

  private ParseResult parseHtml(Page page) throws IOException {
    Document document = Jsoup.parse(new ByteArrayInputStream(page.body()), page.charset().orElse(null), page.url());
    RobotsMeta robots = RobotsMeta.NONE;
    for (Element meta : document.select("meta[name=robots]")) {
      robots = robots.and(RobotsMeta.parse(meta.attr("content")));
    }
    for (Map.Entry<String, String> header : page.headers().entrySet()) {
      if (header.getKey().equalsIgnoreCase("X-Robots-Tag")) {
        robots = robots.and(RobotsMeta.parse(header.getValue()));
      }
    }
    Optional<String> canonical = canonical(document, page);
    Map<String, Link> links = new LinkedHashMap<>();
    int outlinks = 0;
    for (Element element : document.select("a[href], area[href], frame[src], iframe[src]")) {
      boolean isFrame = element.nameIs("frame") || element.nameIs("iframe");
      String absolute = element.absUrl(isFrame ? "src" : "href");
      Optional<String> url = absolute.isEmpty() ? Optional.empty() : UrlNormalizer.tryNormalize(absolute);
      if (url.isEmpty()) {
        continue; // mailto:, javascript:, unparseable: nothing to crawl
      }
      outlinks++;
      Optional<String> anchor = element.nameIs("a") ? Optional.of(element.text()).filter(text -> !text.isBlank()) : Optional.empty();
      links.putIfAbsent(url.get(), new Link(url.get(), isFrame ? UrlKind.FRAME : UrlKind.LINK, anchor));
    }
    Element body = document.body();
    String text = body == null ? "" : body.text();
    String title = document.title();
    Optional<String> description = Optional.ofNullable(document.selectFirst("meta[name=description]")).map(meta -> meta.attr("content").strip()).filter(d -> !d.isEmpty());
    Optional<String> language = Optional.ofNullable(document.selectFirst("html[lang]")).map(html -> html.attr("lang").strip()).filter(l -> !l.isEmpty());
    String truncated = truncate(text);
    return new ParseResult.Parsed(
        Optional.of(title).filter(t -> !t.isBlank()),
        description,
        language,
        truncated,
        canonical,
        robots.noindex(),
        robots.nofollow(),
        List.copyOf(links.values()),
        outlinks,
        checksum(title, text),
        PublishDates.of(document));
  }

  private Optional<String> canonical(Document document, Page page) {
    Element tag = document.selectFirst("link[rel=canonical][href]");
    if (tag != null) {
      Optional<String> url = UrlNormalizer.tryNormalize(tag.absUrl("href"));
      if (url.isPresent()) {
        return url;
      }
    }
    Optional<String> header = page.header("Link");
    if (header.isPresent()) {
      Matcher matcher = CANONICAL_LINK_HEADER.matcher(header.get());
      if (matcher.find()) {
        return UrlNormalizer.resolve(page.url(), matcher.group(1)).flatMap(UrlNormalizer::tryNormalize);
      }
    }
    return Optional.empty();
  }

  private ParseResult text(Page page, Optional<String> title, String text) {
    return new ParseResult.Parsed(title, Optional.empty(), Optional.empty(), truncate(collapse(text)), Optional.empty(), false, false, List.of(), 0, checksum("", text), Optional.empty());
  }

  private static String decode(Page page) {
    Charset charset = StandardCharsets.UTF_8;
    if (page.charset().isPresent() && Charset.isSupported(page.charset().get())) {
      charset = Charset.forName(page.charset().get());
    }
    return new String(page.body(), charset);
  }

  private String truncate(String text) {
    return text.length() <= maxTextChars ? text : text.substring(0, maxTextChars);
  }

  /**
   * The content checksum: SHA-256 of the title and text with whitespace collapsed, so a page that
   * differs only in layout has the same checksum.
   */
  static String checksum(String title, String text) {
    MessageDigest digest = SHA_256.get();
    digest.reset();
    digest.update(collapse(title).getBytes(StandardCharsets.UTF_8));
    digest.update((byte) '\n');
    digest.update(collapse(text).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest.digest());
  }

  private static String collapse(String text) {
    return WHITESPACE.matcher(text).replaceAll(" ").strip();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** For tests and callers that want the defaults. */
  public static PageParser withDefaults() {
    return new PageParser(Set.copyOf(new ArrayList<>(DEFAULT_IMPORTED_TYPES)), 1_000_000);
  }
}
