package dev.crawler.parser.domain;

import java.util.Arrays;
import org.jsoup.nodes.CDataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Tag;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;
import org.jspecify.annotations.Nullable;

/**
 * The visible text of an element, whitespace-collapsed: exactly {@code
 * CollapsedText.collapseWhitespace(element.text())}, in one pass, with no intermediate string.
 *
 * <p>jsoup's {@link Element#text()} walks the tree, adds a space at block and line-break
 * boundaries, normalizes each text node's whitespace code point by code point (dropping zero-width
 * spaces and soft hyphens), copies text under {@code <pre>}-like elements and CDATA verbatim, and
 * trims the result; the parser then collapses every run of whitespace again. Pages are mostly text,
 * and doing that in three passes over a {@link StringBuilder} was a quarter of the parser's time.
 * This class makes the same boundary decisions as jsoup (the same public {@link Tag} properties)
 * and the same character decisions as both passes, over a {@code char[]}; {@code PageTextTest}
 * checks the equality on hand-written and generated documents.
 *
 * <p>Thread-safe: each thread has its own instance, reused call after call.
 */
final class PageText implements NodeVisitor {

  /** How many ancestors jsoup looks at to decide whether whitespace is preserved. */
  private static final int PRESERVING_ANCESTORS = 6;

  /**
   * Each thread's instance: its buffers serve page after page (a page's text was ~70 KB of them).
   */
  private static final ThreadLocal<PageText> OF_THREAD = ThreadLocal.withInitial(PageText::new);

  private static final int INITIAL_CHARS = 4_096;

  /** Buffers grown past this many characters by a huge page are not kept for the next one. */
  private static final int MAX_KEPT_CHARS = 1 << 20;

  private char[] in = new char[INITIAL_CHARS];
  private char[] out = new char[INITIAL_CHARS];
  private int length;

  /** Nothing above U+0020 seen yet: {@link String#trim()} drops what comes before the first one. */
  private boolean trimming = true;

  /** Whitespace seen since the last character kept: a space goes before the next one. */
  private boolean pendingSpace;

  /** The output's length to its last character above U+0020 (where {@link String#trim()} cuts). */
  private int kept;

  private PageText() {}

  /** The element's text, as {@code collapseWhitespace(element.text())}. */
  static String of(Element element) {
    return collapse(element).result();
  }

  /** A page's text ({@link #of}) in UTF-8, and its content checksum with the title. */
  record WithChecksum(byte[] utf8Text, String checksum) {}

  /**
   * The element's text ({@link #of}) in UTF-8 and the {@link ContentChecksum} of the title and that
   * text: encoded once from this thread's buffer, hashed and sent as those bytes, never made a
   * string (under the crawl's C1 JIT, making one and encoding it again cost a tenth of the parser).
   */
  static WithChecksum withChecksum(Element element, String title) {
    PageText text = collapse(element);
    WithChecksum result = ContentChecksum.ofUtf8(title, text.out, text.kept);
    text.releaseHugeBuffers();
    return result;
  }

  /** This thread's instance, holding the element's text in {@link #out} up to {@link #kept}. */
  private static PageText collapse(Element element) {
    PageText text = OF_THREAD.get();
    text.length = 0;
    text.kept = 0;
    text.trimming = true;
    text.pendingSpace = false;
    NodeTraversor.traverse(text, element);
    return text;
  }

  /** The text collapsed last, as a string; buffers a huge page grew are let go. */
  private String result() {
    String result = new String(out, 0, kept);
    releaseHugeBuffers();
    return result;
  }

  private void releaseHugeBuffers() {
    if (out.length > MAX_KEPT_CHARS || in.length > MAX_KEPT_CHARS) {
      in = new char[INITIAL_CHARS];
      out = new char[INITIAL_CHARS];
    }
  }

  @Override
  public void head(Node node, int depth) {
    if (node instanceof TextNode textNode) {
      String text = textNode.getWholeText();
      if (textNode instanceof CDataNode || preservesWhitespace(textNode.parent())) {
        appendVerbatim(text);
      } else {
        appendNormalised(text);
      }
    } else if (node instanceof Element element
        && length > 0
        && !pendingSpace
        && needsLeadingSeparator(element)) {
      // jsoup's separator before a block, a <br> or a text boundary with text
      whitespace(' ');
    }
  }

  @Override
  public void tail(Node node, int depth) {
    if (node instanceof Element element
        && length > 0
        && !pendingSpace
        && needsTrailingSeparator(element)) {
      Node next = node.nextSibling();
      if (next instanceof TextNode
          || next instanceof Element nextElement && nextElement.tag().isInline()) {
        whitespace(' ');
      }
    }
  }

  private static boolean needsLeadingSeparator(Element element) {
    return element.isBlock()
        || element.nameIs("br")
        || element.tag().is(Tag.TextBoundary) && element.childNodeSize() > 0 && element.hasText();
  }

  private static boolean needsTrailingSeparator(Element element) {
    return element.tag().is(Tag.TextBoundary)
        || !element.tag().isInline()
        || hasBlockChild(element);
  }

  private static boolean hasBlockChild(Element element) {
    for (int i = 0; i < element.childNodeSize(); i++) {
      if (element.childNode(i) instanceof Element child && child.isBlock()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the element or one of its five nearest ancestors keeps whitespace, as {@code <pre>} and
   * {@code <textarea>} do.
   */
  private static boolean preservesWhitespace(@Nullable Element element) {
    Element current = element;
    for (int i = 0; i < PRESERVING_ANCESTORS && current != null; i++) {
      if (current.tag().preserveWhitespace()) {
        return true;
      }
      current = current.parent();
    }
    return false;
  }

  /**
   * Text as jsoup normalizes it: whitespace as spaces, zero-width spaces and soft hyphens dropped.
   *
   * <p>This loop runs once per character of almost every page's text. It keeps the state in locals
   * and decides inline ({@link #keep} and {@link #whitespace} are the same decisions, for the rare
   * verbatim text), because the crawl's JIT (C1) neither inlines a method the size of {@code keep}
   * nor keeps fields in registers across a loop.
   */
  private void appendNormalised(String text) {
    char[] chars = charsOf(text);
    char[] out = this.out;
    int length = this.length;
    int kept = this.kept;
    boolean trimming = this.trimming;
    boolean pendingSpace = this.pendingSpace;
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = chars[i];
      if (c > ' ' && c != '\u00A0' && c != '\u200B' && c != '\u00AD') {
        // the common case, a character kept
        trimming = false;
        if (pendingSpace) {
          out[length++] = ' ';
          pendingSpace = false;
        }
        out[length++] = c;
        kept = length;
      } else if (c == ' '
          || c == '\n'
          || c == '\t'
          || c == '\r'
          || c == '\f'
          || c == '\u00A0'
          || c == '\u000B') {
        // whitespace as a space (jsoup keeps U+000B, the collapsing takes it for whitespace)
        pendingSpace |= length > 0;
      } else if (c != '\u200B' && c != '\u00AD' && !trimming) {
        // a control character after some text (String.trim drops those before it)
        if (pendingSpace) {
          out[length++] = ' ';
          pendingSpace = false;
        }
        out[length++] = c;
      }
    }
    this.length = length;
    this.kept = kept;
    this.trimming = trimming;
    this.pendingSpace = pendingSpace;
  }

  /** Text under a whitespace-preserving element, or CDATA: every character as it is. */
  private void appendVerbatim(String text) {
    char[] chars = charsOf(text);
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = chars[i];
      if (CollapsedText.isWhitespace(c)) {
        whitespace(c);
      } else {
        keep(c);
      }
    }
  }

  private void whitespace(char c) {
    if (c > ' ') {
      // a no-break space stops String.trim at either end, and collapsing then drops it
      trimming = false;
      kept = length;
    }
    if (length > 0) {
      pendingSpace = true;
    }
  }

  private void keep(char c) {
    if (trimming) {
      if (c <= ' ') {
        return; // a control character before any text: String.trim drops it
      }
      trimming = false;
    }
    if (pendingSpace) {
      out[length++] = ' ';
      pendingSpace = false;
    }
    out[length++] = c;
    if (c > ' ') {
      kept = length;
    }
  }

  /**
   * The text's characters in {@link #in} (one bulk copy: a loop over {@link String#charAt} costs a
   * bounds check and a coder test per character), after making room in {@link #out} for each of
   * them preceded by a space.
   */
  private char[] charsOf(String text) {
    int count = text.length();
    if (count > in.length) {
      in = new char[Math.max(count, in.length * 2)];
    }
    text.getChars(0, count, in, 0);
    int needed = length + 2 * count;
    if (needed > out.length) {
      out = Arrays.copyOf(out, Math.max(needed, out.length * 2));
    }
    return in;
  }
}
