package dev.crawler.parser.domain;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.parser.domain.StructuredData.Item;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * Microdata items read as the HTML standard reads them (<a
 * href="https://html.spec.whatwg.org/multipage/microdata.html">HTML, section 5</a>).
 *
 * <p>An item's properties are the elements with {@code itemprop} in its subtree, not inside a
 * nested item, and in the subtrees of the elements its {@code itemref} names (after its own, in
 * {@code itemref} order); a property's value is a nested item when the element has {@code
 * itemscope}, else {@code meta}'s {@code content}, the resolved {@code src} of {@code audio},
 * {@code embed}, {@code iframe}, {@code img}, {@code source}, {@code track} and {@code video}, the
 * resolved {@code href} of {@code a}, {@code area} and {@code link}, the resolved {@code data} of
 * {@code object}, {@code data}'s and {@code meter}'s {@code value}, {@code time}'s {@code datetime}
 * when it has one, else the element's text (whitespace collapsed).
 *
 * <p>Bounded: items nest {@value #MAX_NESTING} deep at most (deeper ones and cycles through {@code
 * itemref} are their text); an item reads at most {@value #MAX_PROPERTY_ELEMENTS} property elements
 * and {@value #MAX_ITEM_CHARS} characters of values. Not thread-safe: one per document.
 */
final class Microdata {

  /** How deep items nest in items. */
  static final int MAX_NESTING = 8;

  /** Property elements read per item, nested items' included. */
  static final int MAX_PROPERTY_ELEMENTS = 1_024;

  /** Characters of values kept per item, nested items' included. */
  static final int MAX_ITEM_CHARS = 65_536;

  private final Document document;

  /** The document's elements by id, indexed when an {@code itemref} is first met. */
  private @Nullable Map<String, Element> byId;

  private int propertyElements;
  private int chars;

  Microdata(Document document) {
    this.document = document;
  }

  /** The top-level item whose element this is (it has {@code itemscope}). */
  Item item(Element scope) {
    propertyElements = 0;
    chars = 0;
    Map<String, List<String>> properties = new LinkedHashMap<>();
    Set<Element> chain = Collections.newSetFromMap(new IdentityHashMap<>());
    chain.add(scope);
    ObjectNode json = read(scope, "", 0, properties, chain);
    List<String> types = new ArrayList<>(1);
    for (String type : tokens(scope.attr("itemtype"))) {
      if (types.size() < StructuredData.MAX_VALUES) {
        types.add(StructuredData.value(StructuredData.typeName(type)));
      }
    }
    return new Item(
        StructuredData.Source.MICRODATA,
        List.copyOf(types),
        itemId(scope),
        StructuredData.frozen(properties),
        json.toString());
  }

  /**
   * The item as the standard's JSON, its property values flattened into {@code properties} under
   * {@code path} (when the path is not too deep).
   */
  private ObjectNode read(
      Element scope,
      String path,
      int depth,
      Map<String, List<String>> properties,
      Set<Element> chain) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    List<String> types = tokens(scope.attr("itemtype"));
    if (!types.isEmpty()) {
      ArrayNode type = json.putArray("type");
      types.forEach(type::add);
    }
    itemId(scope).ifPresent(id -> json.put("id", id));
    ObjectNode values = json.putObject("properties");
    boolean flattened = depth < StructuredData.MAX_PATH_DEPTH;
    for (Element property : propertiesOf(scope)) {
      List<String> names = tokens(property.attr("itemprop"));
      boolean nested =
          property.hasAttr("itemscope") && depth + 1 < MAX_NESTING && !chain.contains(property);
      ObjectNode item = null;
      String text = null;
      if (nested) {
        chain.add(property);
        String nestedPath = path.isEmpty() ? names.get(0) : path + "." + names.get(0);
        item = read(property, nestedPath, depth + 1, properties, chain);
        chain.remove(property);
      } else {
        text = StructuredData.value(valueOf(property));
        chars += text.length();
      }
      for (String name : names) {
        String key = path.isEmpty() ? name : path + "." + name;
        if (item != null) {
          values.withArray(name).add(item);
          if (flattened) {
            // its properties are under its first name; its types and id under each
            flattenHead(property, key, properties);
          }
        } else {
          values.withArray(name).add(text);
          if (flattened) {
            add(properties, key, text);
          }
        }
      }
      if (chars > MAX_ITEM_CHARS) {
        break;
      }
    }
    return json;
  }

  /** A nested item's types and id under its path. */
  private static void flattenHead(
      Element scope, String path, Map<String, List<String>> properties) {
    for (String type : tokens(scope.attr("itemtype"))) {
      add(properties, path + ".@type", StructuredData.typeName(type));
    }
    itemId(scope).ifPresent(id -> add(properties, path + ".@id", id));
  }

  private static void add(Map<String, List<String>> properties, String path, String value) {
    StructuredData.add(
        properties,
        CollapsedText.cut(path, 500),
        StructuredData.value(value),
        StructuredData.MAX_PROPERTIES);
  }

  /**
   * The item's property elements: in its subtree (not inside nested items), then in the subtrees
   * its {@code itemref} names; each element once.
   */
  private List<Element> propertiesOf(Element scope) {
    List<Element> found = new ArrayList<>();
    Set<Element> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    seen.add(scope);
    List<Element> roots = new ArrayList<>(scope.children());
    for (String id : tokens(scope.attr("itemref"))) {
      Element referenced = elementById(id);
      if (referenced != null) {
        roots.add(referenced);
      }
    }
    Deque<Element> pending = new ArrayDeque<>();
    for (int i = roots.size() - 1; i >= 0; i--) {
      pending.push(roots.get(i));
    }
    while (!pending.isEmpty() && propertyElements < MAX_PROPERTY_ELEMENTS) {
      Element current = pending.pop();
      if (!seen.add(current)) {
        continue;
      }
      if (current.hasAttr("itemprop") && !tokens(current.attr("itemprop")).isEmpty()) {
        found.add(current);
        propertyElements++;
      }
      if (!current.hasAttr("itemscope")) {
        // in page order: the first child is read first
        for (int i = current.childrenSize() - 1; i >= 0; i--) {
          pending.push(current.child(i));
        }
      }
    }
    return found;
  }

  private @Nullable Element elementById(String id) {
    Map<String, Element> index = byId;
    if (index == null) {
      index = new HashMap<>();
      for (Element element : document.getAllElements()) {
        if (element.hasAttr("id")) {
          index.putIfAbsent(element.id(), element);
        }
      }
      byId = index;
    }
    return index.get(id);
  }

  /** A property's value, as the standard says per element (see the class comment). */
  static String valueOf(Element property) {
    return switch (property.normalName()) {
      case "meta" -> property.attr("content");
      case "audio", "embed", "iframe", "img", "source", "track", "video" -> property.absUrl("src");
      case "a", "area", "link" -> property.absUrl("href");
      case "object" -> property.absUrl("data");
      case "data", "meter" -> property.attr("value");
      case "time" -> property.hasAttr("datetime") ? property.attr("datetime") : property.text();
      default -> property.text();
    };
  }

  private static Optional<String> itemId(Element scope) {
    if (!scope.hasAttr("itemid")) {
      return Optional.empty();
    }
    String id = scope.absUrl("itemid");
    return Optional.of(StructuredData.value(id.isEmpty() ? scope.attr("itemid") : id))
        .filter(value -> !value.isEmpty());
  }

  /** Space-separated tokens ({@code itemprop}, {@code itemtype}, {@code itemref}). */
  static List<String> tokens(String attribute) {
    List<String> tokens = new ArrayList<>(1);
    int i = 0;
    int length = attribute.length();
    while (i < length) {
      while (i < length && CollapsedText.isWhitespace(attribute.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < length && !CollapsedText.isWhitespace(attribute.charAt(i))) {
        i++;
      }
      if (i > start) {
        tokens.add(attribute.substring(start, i));
      }
    }
    return tokens;
  }
}
