package dev.crawler.parser.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.jsoup.select.Selector;

/**
 * Which part of an HTML page is its content: the options {@code content-keep} and {@code
 * content-drop}, applied before the text and the content checksum are taken, so that a changed menu
 * or footer does not make a page look changed, nor fill the document's text.
 *
 * <ul>
 *   <li>{@code content-drop}: {@value #AUTO} (the default) drops the page's navigation ({@code
 *       nav}), its asides ({@code aside}) and the header and footer of the page ({@code header} and
 *       {@code footer} outside every {@code main} and {@code article}; an article's own header
 *       holds its heading) — only when the page has a {@code main} or an {@code article}, which
 *       says where its content is; a page without either keeps all its text. {@value #NONE} drops
 *       nothing. Any other value is a CSS selector of the elements dropped, on every page.
 *   <li>{@code content-keep}: a CSS selector of the elements whose text is the document's text
 *       (their outermost matches, in document order), after the drop; empty (the default), or a
 *       selector that matches nothing on a page, keeps the whole body.
 * </ul>
 *
 * <p>{@code script}, {@code style} and {@code template} never count as text (jsoup keeps their
 * content as data). Links, the canonical, robots directives and the next page are read from the
 * whole page before anything is dropped. Immutable and thread-safe.
 *
 * @param keep the selector of the content kept, when one is set
 * @param drop the selector of the parts dropped on every page, when one is set; empty with {@code
 *     auto} or {@code none}
 * @param dropsBoilerplate whether {@code auto} applies
 */
public record MainContent(Optional<String> keep, Optional<String> drop, boolean dropsBoilerplate) {

  /** The {@code content-drop} value of the default: boilerplate dropped around a main content. */
  public static final String AUTO = "auto";

  /** The {@code content-drop} value that drops nothing. */
  public static final String NONE = "none";

  /** The default: the boilerplate around a {@code main} or {@code article} dropped. */
  public static final MainContent DEFAULT =
      new MainContent(Optional.empty(), Optional.empty(), true);

  /** The whole body, nothing dropped. */
  public static final MainContent WHOLE_PAGE =
      new MainContent(Optional.empty(), Optional.empty(), false);

  /**
   * The options' values read: an empty or unreadable selector keeps the default of its option.
   *
   * @param keep {@code content-keep}: a selector, or empty
   * @param drop {@code content-drop}: {@value #AUTO}, {@value #NONE}, or a selector
   */
  public static MainContent of(String keep, String drop) {
    Optional<String> kept = Optional.of(keep.strip()).filter(MainContent::isSelector);
    String dropped = drop.strip();
    if (dropped.isEmpty() || dropped.equalsIgnoreCase(AUTO) || !isSelector(dropped)) {
      return new MainContent(kept, Optional.empty(), true);
    }
    if (dropped.equalsIgnoreCase(NONE)) {
      return new MainContent(kept, Optional.empty(), false);
    }
    return new MainContent(kept, Optional.of(dropped), false);
  }

  /** Whether jsoup reads the text as a CSS selector. */
  static boolean isSelector(String selector) {
    if (selector.isEmpty()) {
      return false;
    }
    try {
      Selector.evaluatorOf(selector);
      return true;
    } catch (Selector.SelectorParseException e) {
      return false;
    }
  }

  /**
   * The element whose text is the document's text: the body with the dropped parts removed (from
   * the document: call this once the links and everything else are read), or the kept elements
   * gathered under an element of their own.
   *
   * @param body the page's body
   * @param boilerplate the page's {@code nav}, {@code aside}, {@code header} and {@code footer}
   *     elements, in document order ({@link HtmlFacts})
   * @param hasMainContent whether the page has a {@code main} or an {@code article}
   */
  Element contentOf(Element body, List<Element> boilerplate, boolean hasMainContent) {
    if (drop.isPresent()) {
      body.select(drop.get()).remove();
    } else if (dropsBoilerplate && hasMainContent) {
      for (Element element : boilerplate) {
        if (isBoilerplate(element)) {
          element.remove();
        }
      }
    }
    if (keep.isEmpty()) {
      return body;
    }
    Elements kept = body.select(keep.get());
    if (kept.isEmpty()) {
      return body;
    }
    if (kept.size() == 1) {
      return kept.first();
    }
    List<Element> outermost = new ArrayList<>(kept.size());
    for (Element element : kept) {
      if (!hasAncestorIn(element, kept)) {
        outermost.add(element);
      }
    }
    Element content = new Element("div");
    for (Element element : outermost) {
      // each its own block, so the texts of two elements do not run together
      content.appendChild(element);
    }
    return content;
  }

  /**
   * Whether {@code auto} drops the element: navigation and asides, a page-level header or footer.
   */
  private static boolean isBoilerplate(Element element) {
    if (element.nameIs("nav") || element.nameIs("aside")) {
      return true;
    }
    for (Element parent = element.parent(); parent != null; parent = parent.parent()) {
      if (parent.nameIs("main") || parent.nameIs("article")) {
        return false; // an article's own header or footer: its heading, its byline
      }
    }
    return true;
  }

  private static boolean hasAncestorIn(Element element, Elements elements) {
    for (Element parent = element.parent(); parent != null; parent = parent.parent()) {
      if (elements.contains(parent)) {
        return true;
      }
    }
    return false;
  }
}
