package dev.crawler.parser.domain;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;

/**
 * Whether a page fetched over HTTP is built by its scripts, so that only a browser sees its content
 * (the option {@code render: auto}): an application root left empty for scripts to fill ({@code
 * <div id="app"></div>}, {@code #root}, {@code #__next}, {@code #__nuxt}, {@code <app-root>}, an
 * {@code ng-app} element), a {@code <noscript>} asking the reader to turn JavaScript on, or scripts
 * on a page with almost no text and links of its own. Each only on a page with little text: a
 * document that reads well without its scripts is parsed as it is. Pure; thread-safe.
 */
public final class RenderingNeed {

  /** Text a page built by scripts has at most, in characters, for an empty root or a noscript. */
  static final int LITTLE_TEXT_CHARS = 1_000;

  /** Text of a page that is only scripts, at most: a title and a "loading…". */
  static final int ALMOST_NO_TEXT_CHARS = 200;

  /** Links of a page that is only scripts, at most. */
  static final int ALMOST_NO_LINKS = 3;

  /**
   * A text asking for JavaScript: "enable JavaScript", "requires JavaScript", "JavaScript is
   * required", "without JavaScript enabled", "JavaScript is disabled. Please enable it". Not one
   * only saying that it is off ("JavaScript is disabled on your browser.", in the header of every
   * javadoc page, static pages of a few lines among them): a page built by scripts that says only
   * that still has almost no text of its own.
   */
  private static final Pattern ASKS_FOR_JAVASCRIPT =
      Pattern.compile(
          "(enable|turn on|activate|allow|requires?|need|needs)\\W+(\\w+\\W+){0,3}javascript"
              + "|javascript\\W+(\\w+\\W+){0,2}(required|enabled|needed|must)"
              + "|javascript\\W+(\\w+\\W+){0,2}disabled\\W+(\\w+\\W+){0,4}(enable|turn on|activate)",
          Pattern.CASE_INSENSITIVE);

  private RenderingNeed() {}

  /**
   * Why the page needs a browser, if it does.
   *
   * @param textChars the characters of the page's text (its body, whitespace collapsed)
   * @param links the page's crawlable links
   */
  static Optional<String> of(HtmlFacts facts, int textChars, int links) {
    if (textChars <= LITTLE_TEXT_CHARS) {
      for (Element root : facts.applicationRoots) {
        if (root.childrenSize() == 0 && root.text().isBlank()) {
          return Optional.of("an empty application root (" + describe(root) + ")");
        }
      }
      for (String noscript : facts.noscriptTexts) {
        if (ASKS_FOR_JAVASCRIPT.matcher(noscript).find()) {
          return Optional.of("a noscript asking for JavaScript");
        }
      }
    }
    if (facts.scripts > 0 && textChars <= ALMOST_NO_TEXT_CHARS && links < ALMOST_NO_LINKS) {
      return Optional.of(
          facts.scripts
              + (facts.scripts == 1 ? " script" : " scripts")
              + " on a page of "
              + textChars
              + " characters of text and "
              + links
              + " links");
    }
    return Optional.empty();
  }

  /** Whether the element is where a script framework mounts its application. */
  static boolean isApplicationRoot(Element element) {
    String id = element.id().toLowerCase(Locale.ROOT);
    return switch (element.normalName()) {
      case "app-root" -> true;
      case "div", "main", "section", "body" ->
          ROOT_IDS.contains(id) || element.hasAttr("ng-app") || element.hasAttr("data-reactroot");
      default -> false;
    };
  }

  private static final List<String> ROOT_IDS =
      List.of("app", "root", "__next", "__nuxt", "svelte", "application", "main-app");

  private static String describe(Element root) {
    return root.normalName() + (root.id().isEmpty() ? "" : "#" + root.id());
  }
}
