package dev.crawler.parser.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;

/**
 * What a page states about itself in machine-readable form: its JSON-LD, microdata, Open Graph and
 * Twitter card tags. They are read from the whole document (before {@link MainContent} drops
 * anything):
 *
 * <ul>
 *   <li><b>JSON-LD</b>: every {@code <script type="application/ld+json">}, parsed with Jackson
 *       ({@link JsonLd}); a block's {@code @graph} is flattened into items, as is a top-level
 *       array. A block that is malformed, longer than {@value JsonLd#MAX_BLOCK_CHARS} characters,
 *       or past {@value JsonLd#MAX_TOTAL_CHARS} characters of the page's JSON-LD is skipped and
 *       reported in {@link #problems()}; the page never fails for it.
 *   <li><b>Microdata</b> (HTML's {@code itemscope}, {@code itemtype}, {@code itemprop}, {@code
 *       itemid}, {@code itemref}), read as the HTML standard says ({@link Microdata}): each
 *       top-level item, nested items as its properties' values.
 *   <li><b>Open Graph</b>: {@code <meta property="og:…">} and the other Open Graph namespaces
 *       ({@code article:}, {@code book:}, {@code profile:}, {@code music:}, {@code video:}, {@code
 *       fb:}, {@code product:}); <b>Twitter cards</b>: {@code <meta name="twitter:…">}. Either
 *       attribute names either kind, as pages use both. Keys lower-cased; each key's values in page
 *       order (a repeated {@code og:image} is a list).
 * </ul>
 *
 * <p>Every value is a string a consumer can compare without parsing: an item's properties are
 * flattened to dotted paths ({@code offers.price}, {@code author.name}, {@code author.@type}), its
 * JSON kept beside them for full fidelity. See {@link Item}.
 *
 * <p>From the JSON-LD items, the page's {@link #datePublished()} and {@link #authors()}: for a page
 * that states no other publish date or author. Each comes from the first item that has it among the
 * article-like items ({@code Article} and its kinds, postings, {@code Recipe}, {@code Review},
 * {@code HowTo}), else among the web-page items ({@code WebPage} and its kinds).
 *
 * <p>Bounds (per page): {@value #MAX_ITEMS} items; per item {@value #MAX_PROPERTIES} property paths
 * of {@value #MAX_VALUES} values each, values cut at {@value #MAX_VALUE_CHARS} characters, paths at
 * most {@value #MAX_PATH_DEPTH} levels deep; {@value #MAX_META_KEYS} Open Graph keys and as many
 * Twitter keys, {@value #MAX_VALUES} values each; {@value #MAX_PROBLEMS} problems; {@value
 * #MAX_AUTHORS} authors. What is beyond a bound is left out (items beyond theirs are reported).
 *
 * @param items the JSON-LD items, then the microdata items, each in page order
 * @param openGraph Open Graph key to values
 * @param twitter Twitter card key to values
 * @param datePublished the JSON-LD {@code datePublished}, as the page wrote it
 * @param authors the JSON-LD author names, in the order given
 * @param problems what could not be read, and why
 */
public record StructuredData(
    List<Item> items,
    Map<String, List<String>> openGraph,
    Map<String, List<String>> twitter,
    Optional<String> datePublished,
    List<String> authors,
    List<Problem> problems) {

  /** Items kept per page. */
  public static final int MAX_ITEMS = 256;

  /** Property paths kept per item. */
  public static final int MAX_PROPERTIES = 256;

  /** Values kept per property path, and per Open Graph or Twitter key. */
  public static final int MAX_VALUES = 64;

  /** The longest value kept, in characters; longer ones are cut. */
  public static final int MAX_VALUE_CHARS = 2_000;

  /** How many levels of nested objects an item's property paths reach ({@code a.b.c.d}). */
  public static final int MAX_PATH_DEPTH = 4;

  /** Open Graph keys kept per page, and Twitter keys. */
  public static final int MAX_META_KEYS = 128;

  /** Problems reported per page. */
  public static final int MAX_PROBLEMS = 16;

  /** Authors kept. */
  public static final int MAX_AUTHORS = 16;

  /** A page that states nothing. */
  public static final StructuredData NONE =
      new StructuredData(List.of(), Map.of(), Map.of(), Optional.empty(), List.of(), List.of());

  /** Where an item was read from. */
  public enum Source {
    JSON_LD,
    MICRODATA
  }

  /**
   * One item: a JSON-LD node or a top-level microdata item.
   *
   * @param source where it was read from
   * @param types its types: schema.org's by their short name ({@code Product}, whether the page
   *     wrote {@code https://schema.org/Product}, {@code http://schema.org/Product} or {@code
   *     schema:Product}), any other vocabulary's as written
   * @param id its {@code @id} (JSON-LD) or {@code itemid} (microdata, resolved)
   * @param properties each property path to its values, in page order: a nested object's properties
   *     under {@code name.}, its types under {@code name.@type} and its id under {@code name.@id};
   *     numbers and booleans as JSON writes them; a JSON-LD value object ({@code {"@value": …}}) as
   *     its value
   * @param json the item as JSON: the JSON-LD node (with its block's {@code @context} when it has
   *     none of its own), or the microdata item in the HTML standard's JSON form ({@code {"type":
   *     […], "id": …, "properties": {name: [value or item, …]}}})
   */
  public record Item(
      Source source,
      List<String> types,
      Optional<String> id,
      Map<String, List<String>> properties,
      String json) {

    /** The first value of a property path, if it has one. */
    public Optional<String> first(String path) {
      List<String> values = properties.get(path);
      return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
  }

  /**
   * Something that could not be read.
   *
   * @param block the JSON-LD block's index among the page's blocks, from 0; -1 for the page as a
   *     whole (items beyond the bound)
   * @param message why, with the parser's message and where in the block it stopped
   */
  public record Problem(int block, String message) {}

  /**
   * The document's structured data. Never throws for what a page holds: a block that cannot be read
   * is a {@link Problem}. Reads the tree and never changes it; thread-safe.
   *
   * @param document the whole page, its base URI the page's URL (microdata URLs are resolved
   *     against it, or against its {@code <base href>})
   */
  public static StructuredData of(Document document) {
    Collector collector = new Collector();
    document.traverse(collector);
    return of(document, collector.scripts, collector.metas, collector.itemScopes);
  }

  /**
   * The document's structured data, from the elements a walk of it already gathered ({@link
   * HtmlFacts}): its JSON-LD scripts, its {@code meta} elements with a {@code content} and a {@code
   * property} or {@code name}, and its top-level {@code itemscope} elements, in document order.
   */
  static StructuredData of(
      Document document, List<Element> scripts, List<Element> metas, List<Element> itemScopes) {
    if (scripts.isEmpty() && itemScopes.isEmpty() && metas.isEmpty()) {
      return NONE;
    }
    List<Problem> problems = new ArrayList<>(0);
    JsonLd jsonLd = JsonLd.read(scripts, problems);
    List<Item> items = new ArrayList<>(jsonLd.items());
    Microdata microdata = new Microdata(document);
    for (Element scope : itemScopes) {
      if (items.size() >= MAX_ITEMS) {
        break;
      }
      items.add(microdata.item(scope));
    }
    int found = jsonLd.found() + itemScopes.size();
    if (found > MAX_ITEMS) {
      report(problems, -1, found + " items, over the " + MAX_ITEMS + " kept; the rest dropped");
    }
    Map<String, List<String>> openGraph = new LinkedHashMap<>();
    Map<String, List<String>> twitter = new LinkedHashMap<>();
    for (Element meta : metas) {
      meta(meta, openGraph, twitter);
    }
    return new StructuredData(
        List.copyOf(items),
        frozen(openGraph),
        frozen(twitter),
        jsonLd.datePublished(),
        jsonLd.authors(),
        List.copyOf(problems));
  }

  /**
   * The publish date, when {@link #datePublished()} is an ISO 8601 date or date-time ({@link
   * PublishDates#parse}).
   */
  public Optional<Instant> publishedAt() {
    return datePublished.flatMap(PublishDates::parse);
  }

  /** The items of a type (its short name for schema.org's), in page order. */
  public List<Item> itemsOfType(String type) {
    List<Item> found = new ArrayList<>();
    for (Item item : items) {
      if (item.types().contains(type)) {
        found.add(item);
      }
    }
    return found;
  }

  static void report(List<Problem> problems, int block, String message) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(new Problem(block, CollapsedText.cut(message, 300)));
    }
  }

  /** A value as kept: whitespace collapsed, cut at {@value #MAX_VALUE_CHARS} characters. */
  static String value(String text) {
    return CollapsedText.cut(CollapsedText.collapseWhitespace(text), MAX_VALUE_CHARS);
  }

  /** Adds a value under a key, within the bounds on keys and values per key; empty ones skipped. */
  static void add(Map<String, List<String>> map, String key, String value, int maxKeys) {
    if (value.isEmpty()) {
      return;
    }
    List<String> values = map.get(key);
    if (values == null) {
      if (map.size() >= maxKeys) {
        return;
      }
      values = new ArrayList<>(1);
      map.put(key, values);
    }
    if (values.size() < MAX_VALUES) {
      values.add(value);
    }
  }

  /** An unmodifiable copy that keeps the order of the keys. */
  static Map<String, List<String>> frozen(Map<String, List<String>> map) {
    if (map.isEmpty()) {
      return Map.of();
    }
    LinkedHashMap<String, List<String>> copy = new LinkedHashMap<>(map.size() * 2);
    map.forEach((key, values) -> copy.put(key, List.copyOf(values)));
    return Collections.unmodifiableMap(copy);
  }

  /**
   * A schema.org type by its short name ({@code https://schema.org/Product} is {@code Product});
   * any other as it is.
   */
  static String typeName(String type) {
    for (String prefix : SCHEMA_ORG) {
      if (type.length() > prefix.length()
          && type.regionMatches(true, 0, prefix, 0, prefix.length())) {
        String name = type.substring(prefix.length());
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
      }
    }
    return type;
  }

  private static final List<String> SCHEMA_ORG =
      List.of(
          "https://schema.org/",
          "http://schema.org/",
          "https://www.schema.org/",
          "http://www.schema.org/",
          "schema:");

  private static final List<String> OPEN_GRAPH_PREFIXES =
      List.of("og:", "article:", "book:", "profile:", "music:", "video:", "fb:", "product:");

  private static void meta(
      Element meta, Map<String, List<String>> openGraph, Map<String, List<String>> twitter) {
    String content = value(meta.attr("content"));
    if (content.isEmpty()) {
      return;
    }
    // Open Graph uses property=, Twitter name=; pages mix them up
    for (String attribute : new String[] {"property", "name"}) {
      String key = firstToken(meta.attr(attribute)).toLowerCase(Locale.ROOT);
      if (key.startsWith("twitter:")) {
        add(twitter, CollapsedText.cut(key, 200), content, MAX_META_KEYS);
        return;
      }
      for (String prefix : OPEN_GRAPH_PREFIXES) {
        if (key.startsWith(prefix)) {
          add(openGraph, CollapsedText.cut(key, 200), content, MAX_META_KEYS);
          return;
        }
      }
    }
  }

  /** The first of space-separated tokens (RDFa's {@code property} may name several). */
  private static String firstToken(String text) {
    String stripped = text.strip();
    int space = 0;
    while (space < stripped.length() && !CollapsedText.isWhitespace(stripped.charAt(space))) {
      space++;
    }
    return stripped.substring(0, space);
  }

  /**
   * One walk over the document: the JSON-LD scripts, the {@code meta} elements with a {@code
   * content}, and the top-level microdata items ({@code itemscope} without {@code itemprop}).
   */
  private static final class Collector implements NodeVisitor {
    final List<Element> scripts = new ArrayList<>(2);
    final List<Element> metas = new ArrayList<>();
    final List<Element> itemScopes = new ArrayList<>(0);

    @Override
    public void head(Node node, int depth) {
      if (!(node instanceof Element element)) {
        return;
      }
      if (element.nameIs("script")) {
        if (element.attr("type").strip().equalsIgnoreCase("application/ld+json")) {
          scripts.add(element);
        }
      } else if (element.nameIs("meta")) {
        if (element.hasAttr("content")
            && (element.hasAttr("property") || element.hasAttr("name"))) {
          metas.add(element);
        }
      }
      if (element.hasAttr("itemscope") && !element.hasAttr("itemprop")) {
        itemScopes.add(element);
      }
    }
  }
}
