package dev.crawler.parser.domain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.parser.domain.StructuredData.Item;
import dev.crawler.parser.domain.StructuredData.Problem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * A page's JSON-LD blocks read into items (<a href="https://www.w3.org/TR/json-ld11/">JSON-LD
 * 1.1</a> as pages write it; no context is fetched or expanded): each top-level object, each
 * element of a top-level array, and each node of an {@code @graph} is an item.
 *
 * <p>Parsed with Jackson, leniently where browsers' and search engines' readers are: comments,
 * trailing commas and raw control characters (a line feed inside a string) are accepted, as is an
 * HTML comment or CDATA section around the JSON, and several JSON values one after another. Nesting
 * deeper than {@value #MAX_NESTING} levels, a block over {@value #MAX_BLOCK_CHARS} characters, and
 * blocks past {@value #MAX_TOTAL_CHARS} characters in all are refused before or while parsing; a
 * refused or malformed block is skipped whole and reported.
 *
 * @param items the items read, at most {@link StructuredData#MAX_ITEMS}
 * @param found how many items the blocks held, kept or not
 * @param datePublished the first {@code datePublished} of an article-like item, else of a web page
 * @param authors the author names of the first article-like item that names any, else of a web page
 */
record JsonLd(List<Item> items, int found, Optional<String> datePublished, List<String> authors) {

  /** The longest JSON-LD block read, in characters. */
  static final int MAX_BLOCK_CHARS = 65_536;

  /** The most JSON-LD read per page, in characters, all blocks together. */
  static final int MAX_TOTAL_CHARS = 262_144;

  /** The deepest nesting of objects and arrays read. */
  static final int MAX_NESTING = 64;

  /** Types whose date and author are the page's: articles, postings, and their like. */
  private static final Set<String> ARTICLE_TYPES =
      Set.of(
          "Article",
          "NewsArticle",
          "AnalysisNewsArticle",
          "AskPublicNewsArticle",
          "BackgroundNewsArticle",
          "OpinionNewsArticle",
          "ReportageNewsArticle",
          "ReviewNewsArticle",
          "AdvertiserContentArticle",
          "SatiricalArticle",
          "ScholarlyArticle",
          "MedicalScholarlyArticle",
          "TechArticle",
          "APIReference",
          "Report",
          "BlogPosting",
          "LiveBlogPosting",
          "SocialMediaPosting",
          "DiscussionForumPosting",
          "Recipe",
          "Review",
          "HowTo");

  /** Types whose date and author are the page's when no article says otherwise. */
  private static final Set<String> PAGE_TYPES =
      Set.of(
          "WebPage",
          "AboutPage",
          "CheckoutPage",
          "CollectionPage",
          "ContactPage",
          "FAQPage",
          "ItemPage",
          "MedicalWebPage",
          "ProfilePage",
          "QAPage",
          "RealEstateListing",
          "SearchResultsPage");

  /** The longest date kept, in characters. */
  private static final int MAX_DATE_CHARS = 100;

  private static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(MAX_NESTING)
                          .maxDocumentLength(MAX_BLOCK_CHARS)
                          .build())
                  .build())
          .enable(
              JsonReadFeature.ALLOW_JAVA_COMMENTS,
              JsonReadFeature.ALLOW_TRAILING_COMMA,
              JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
          .build();

  private static final ObjectReader READER = MAPPER.readerFor(JsonNode.class);

  /** Reads the blocks, in page order; each refused or malformed one is reported under its index. */
  static JsonLd read(List<Element> scripts, List<Problem> problems) {
    if (scripts.isEmpty()) {
      return new JsonLd(List.of(), 0, Optional.empty(), List.of());
    }
    List<Item> items = new ArrayList<>();
    List<ObjectNode> nodes = new ArrayList<>();
    Map<String, ObjectNode> byId = new HashMap<>();
    int found = 0;
    long total = 0;
    for (int block = 0; block < scripts.size(); block++) {
      String data = scripts.get(block).data();
      if (data.length() > MAX_BLOCK_CHARS) {
        StructuredData.report(
            problems,
            block,
            data.length()
                + " characters, over the "
                + MAX_BLOCK_CHARS
                + " a block may have; skipped");
        continue;
      }
      if (total + data.length() > MAX_TOTAL_CHARS) {
        StructuredData.report(
            problems,
            block,
            "over the "
                + MAX_TOTAL_CHARS
                + " characters of JSON-LD read per page ("
                + total
                + " before it); skipped");
        continue;
      }
      total += data.length();
      List<JsonNode> values;
      try {
        values = parse(unwrapped(data));
      } catch (JsonProcessingException e) {
        StructuredData.report(problems, block, "malformed JSON: " + messageOf(e) + "; skipped");
        continue;
      } catch (IOException e) {
        StructuredData.report(problems, block, "unreadable: " + e.getMessage() + "; skipped");
        continue;
      }
      for (JsonNode value : values) {
        for (ObjectNode node : nodesOf(value)) {
          found++;
          if (node.hasNonNull("@id") && node.get("@id").isTextual()) {
            byId.putIfAbsent(node.get("@id").asText(), node);
          }
          if (items.size() < StructuredData.MAX_ITEMS) {
            items.add(item(node, contextOf(value)));
            nodes.add(node);
          }
        }
      }
    }
    return new JsonLd(
        List.copyOf(items), found, datePublished(items, nodes), authors(items, nodes, byId));
  }

  /** Every JSON value in the text (usually one). */
  private static List<JsonNode> parse(String json) throws IOException {
    List<JsonNode> values = new ArrayList<>(1);
    try (MappingIterator<JsonNode> iterator = READER.readValues(json)) {
      while (iterator.hasNextValue()) {
        values.add(iterator.nextValue());
      }
    }
    return values;
  }

  /** The JSON inside an HTML comment or a CDATA section, as older pages wrap their scripts. */
  static String unwrapped(String data) {
    String json = data.strip();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (String[] wrapper : WRAPPERS) {
        if (json.startsWith(wrapper[0])) {
          json = json.substring(wrapper[0].length()).strip();
          changed = true;
        }
        if (json.endsWith(wrapper[1])) {
          json = json.substring(0, json.length() - wrapper[1].length()).strip();
          changed = true;
        }
      }
    }
    return json;
  }

  private static final String[][] WRAPPERS = {
    {"<!--", "-->"}, {"//<![CDATA[", "//]]>"}, {"/*<![CDATA[*/", "/*]]>*/"}, {"<![CDATA[", "]]>"}
  };

  private static String messageOf(JsonProcessingException e) {
    JsonLocation location = e.getLocation();
    String message = e.getOriginalMessage();
    return location == null
        ? message
        : message + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  /** The objects a top-level value holds as items: its graph's, its array's, or itself. */
  private static List<ObjectNode> nodesOf(JsonNode value) {
    List<ObjectNode> nodes = new ArrayList<>(1);
    if (value.isArray()) {
      for (JsonNode element : value) {
        if (element.isObject()) {
          nodes.addAll(nodesOf(element));
        }
      }
    } else if (value instanceof ObjectNode object) {
      JsonNode graph = object.get("@graph");
      if (graph == null) {
        nodes.add(object);
      } else {
        if (hasMoreThanContextAndGraph(object)) {
          nodes.add(object); // a node of its own besides its graph
        }
        for (JsonNode element : graph.isArray() ? graph : List.of(graph)) {
          if (element instanceof ObjectNode node) {
            nodes.add(node);
          }
        }
      }
    }
    return nodes;
  }

  private static boolean hasMoreThanContextAndGraph(ObjectNode object) {
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      if (!field.getKey().equals("@context") && !field.getKey().equals("@graph")) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable JsonNode contextOf(JsonNode value) {
    return value.isObject() ? value.get("@context") : null;
  }

  private static Item item(ObjectNode node, @Nullable JsonNode blockContext) {
    List<String> types = new ArrayList<>(1);
    JsonNode type = node.get("@type");
    if (type != null) {
      for (JsonNode name : type.isArray() ? type : List.of(type)) {
        if (name.isTextual() && types.size() < StructuredData.MAX_VALUES) {
          types.add(StructuredData.value(StructuredData.typeName(name.asText())));
        }
      }
    }
    JsonNode id = node.get("@id");
    Map<String, List<String>> properties = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = field.getKey();
      if (!name.equals("@context") && !name.equals("@type") && !name.equals("@id")) {
        flatten(name, field.getValue(), 1, properties);
      }
    }
    ObjectNode json = node;
    if (blockContext != null && !node.has("@context")) {
      // the item's JSON stands on its own: its block's context goes with it
      json = MAPPER.createObjectNode();
      json.set("@context", blockContext);
      json.setAll(node);
    }
    return new Item(
        StructuredData.Source.JSON_LD,
        List.copyOf(types),
        id != null && id.isTextual()
            ? Optional.of(StructuredData.value(id.asText()))
            : Optional.empty(),
        StructuredData.frozen(properties),
        json.toString());
  }

  /** A value under its path: an object's fields under {@code path.}, an array's elements alike. */
  private static void flatten(
      String path, JsonNode value, int depth, Map<String, List<String>> properties) {
    if (value.isArray()) {
      for (JsonNode element : value) {
        flatten(path, element, depth, properties);
      }
    } else if (value.isObject()) {
      JsonNode literal = value.get("@value");
      if (literal != null) {
        flatten(path, literal, depth, properties);
        return;
      }
      if (depth >= StructuredData.MAX_PATH_DEPTH) {
        return;
      }
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        String name = field.getKey();
        if (name.equals("@context")) {
          continue;
        }
        JsonNode child = field.getValue();
        if (name.equals("@type")) {
          for (JsonNode type : child.isArray() ? child : List.of(child)) {
            if (type.isTextual()) {
              add(properties, path + ".@type", StructuredData.typeName(type.asText()));
            }
          }
        } else {
          flatten(path + "." + name, child, depth + 1, properties);
        }
      }
    } else if (value.isValueNode() && !value.isNull()) {
      add(properties, path, value.asText());
    }
  }

  private static void add(Map<String, List<String>> properties, String path, String value) {
    StructuredData.add(
        properties,
        CollapsedText.cut(path, 500),
        StructuredData.value(value),
        StructuredData.MAX_PROPERTIES);
  }

  private static Optional<String> datePublished(List<Item> items, List<ObjectNode> nodes) {
    for (Set<String> types : List.of(ARTICLE_TYPES, PAGE_TYPES)) {
      for (int i = 0; i < items.size(); i++) {
        if (isOfType(items.get(i), types)) {
          String date = text(nodes.get(i).get("datePublished"));
          if (date != null) {
            return Optional.of(CollapsedText.cut(date, MAX_DATE_CHARS));
          }
        }
      }
    }
    return Optional.empty();
  }

  private static List<String> authors(
      List<Item> items, List<ObjectNode> nodes, Map<String, ObjectNode> byId) {
    for (Set<String> types : List.of(ARTICLE_TYPES, PAGE_TYPES)) {
      for (int i = 0; i < items.size(); i++) {
        if (isOfType(items.get(i), types)) {
          JsonNode author = nodes.get(i).get("author");
          if (author != null) {
            Set<String> names = new LinkedHashSet<>();
            for (JsonNode one : author.isArray() ? author : List.of(author)) {
              String name = authorName(one, byId);
              if (name != null && names.size() < StructuredData.MAX_AUTHORS) {
                names.add(name);
              }
            }
            if (!names.isEmpty()) {
              return List.copyOf(names);
            }
          }
        }
      }
    }
    return List.of();
  }

  /**
   * An author's name: the string itself, or a Person's or Organization's {@code name}, the object
   * found by its {@code @id} elsewhere on the page when it holds only that.
   */
  private static @Nullable String authorName(JsonNode author, Map<String, ObjectNode> byId) {
    if (author.isTextual()) {
      return nonEmpty(author.asText());
    }
    if (!author.isObject()) {
      return null;
    }
    String name = text(author.get("name"));
    if (name == null && author.get("@id") != null && author.get("@id").isTextual()) {
      ObjectNode named = byId.get(author.get("@id").asText());
      name = named == null ? null : text(named.get("name"));
    }
    return name == null ? null : nonEmpty(name);
  }

  /** A value's text: a string, the first string of an array, or a value object's value. */
  private static @Nullable String text(@Nullable JsonNode value) {
    if (value == null) {
      return null;
    }
    if (value.isArray()) {
      for (JsonNode element : value) {
        String text = text(element);
        if (text != null) {
          return text;
        }
      }
      return null;
    }
    if (value.isObject()) {
      return value.has("@value") ? text(value.get("@value")) : null;
    }
    return value.isTextual() ? nonEmpty(value.asText()) : null;
  }

  private static @Nullable String nonEmpty(String text) {
    String value = StructuredData.value(text);
    return value.isEmpty() ? null : value;
  }

  private static boolean isOfType(Item item, Set<String> types) {
    for (String type : item.types()) {
      if (types.contains(type)) {
        return true;
      }
    }
    return false;
  }
}
