package dev.crawler.parser.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jspecify.annotations.Nullable;

/**
 * Writes an element's content as markdown ({@link PageMarkdown} states what it makes of each
 * element), in one walk over the tree.
 *
 * <p>Blocks (paragraphs, headings, code blocks, tables, thematic breaks) are written to the output
 * one at a time, each line behind the prefixes of the blockquotes and list items it is in; inline
 * content gathers in a buffer until the block it belongs to ends. The walk stops as soon as a block
 * does not fit the bound. Not thread-safe: one per conversion.
 */
final class MarkdownWriter {

  /** Elements dropped with everything in them: not content, or not text. */
  private static final Set<String> DROPPED =
      Set.of(
          "script",
          "style",
          "noscript",
          "template",
          "head",
          "title",
          "meta",
          "link",
          "base",
          "iframe",
          "frame",
          "frameset",
          "object",
          "embed",
          "applet",
          "canvas",
          "svg",
          "audio",
          "video",
          "source",
          "track",
          "map",
          "param",
          "dialog",
          "input",
          "button",
          "select",
          "textarea",
          "option",
          "optgroup",
          "datalist",
          "output",
          "progress",
          "meter");

  /** Elements that start and end a block: their content never runs into the text around them. */
  private static final Set<String> BLOCKS =
      Set.of(
          "address",
          "article",
          "aside",
          "blockquote",
          "body",
          "caption",
          "center",
          "dd",
          "details",
          "dir",
          "div",
          "dl",
          "dt",
          "fieldset",
          "figcaption",
          "figure",
          "footer",
          "form",
          "h1",
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "header",
          "hgroup",
          "hr",
          "html",
          "legend",
          "li",
          "listing",
          "main",
          "menu",
          "nav",
          "ol",
          "p",
          "plaintext",
          "pre",
          "search",
          "section",
          "summary",
          "table",
          "tbody",
          "td",
          "tfoot",
          "th",
          "thead",
          "tr",
          "ul",
          "xmp");

  /** Deeper elements are written as their text: the walk recurses, and pages can nest deeply. */
  private static final int MAX_DEPTH = 128;

  /** The widest {@code colspan} and {@code rowspan} honoured, and the most columns written. */
  private static final int MAX_SPAN = 64;

  /** The longest code language kept: a lexer's name. */
  private static final int MAX_LANGUAGE_CHARS = 32;

  /** The ASCII characters {@link #escape} may escape. */
  private static final boolean[] MARKUP = new boolean[128];

  /** The ASCII characters {@link #isPlain} writes as they are: neither whitespace nor markup. */
  private static final boolean[] PLAIN_ASCII = new boolean[128];

  /** The characters {@link #breaksDestination} percent-encodes in a link destination. */
  private static final boolean[] BREAKS_DESTINATION = new boolean['|' + 1];

  static {
    for (char c : "\\`*[]<~_&|".toCharArray()) {
      MARKUP[c] = true;
    }
    for (char c = 0; c < PLAIN_ASCII.length; c++) {
      PLAIN_ASCII[c] = c > ' ' && !MARKUP[c];
    }
    for (char c = 0; c <= ' '; c++) {
      BREAKS_DESTINATION[c] = true;
    }
    for (char c : "()<>|\\".toCharArray()) {
      BREAKS_DESTINATION[c] = true;
    }
  }

  /** Blocks are separated by a line feed (list items, a list in an item) or a blank line. */
  private static final int LINE = 1;

  private static final int BLANK = 2;

  private final BaseUrl base;
  private final int maxChars;
  private final StringBuilder out = new StringBuilder();

  /** The inline content of the block being written. */
  private final StringBuilder inline = new StringBuilder();

  /** The blockquotes and list items the walk is in, outermost first. */
  private final List<Container> containers = new ArrayList<>();

  /**
   * How many times the inline content was taken for a block: markup put around inline content
   * (emphasis, a link) is dropped when a block inside took the content it began in.
   */
  private int taken;

  /** Whitespace met since the last character written inline: a space, if text follows. */
  private boolean pendingSpace;

  /** How the next block is separated from the last one. */
  private int separation = BLANK;

  /** Inside a table cell or a heading: blocks are only spaces; {@code |} is escaped in a cell. */
  private int inlineOnly;

  private int inCell;
  private boolean inLink;
  private boolean inStrong;
  private boolean inEmphasis;
  private boolean inStrikethrough;

  /**
   * Where the last list ended (the output's length, the containers' depth) and whether it used the
   * other markers: a list right after another takes the other ones ({@code *}, {@code )}), else
   * markdown reads the two as one.
   */
  private int listEnd = -1;

  private int listEndDepth;
  private boolean listAlternate;

  /** The URL of a link around blocks: each block's text in it links there. */
  private @Nullable String blockLink;

  /** The walk stops: a block did not fit, or the one being gathered cannot. */
  private boolean stopped;

  /** A block did not fit: nothing more is written. */
  private boolean ended;

  private boolean truncated;

  private MarkdownWriter(String baseUrl, int maxChars) {
    this.base = new BaseUrl(baseUrl);
    this.maxChars = maxChars;
  }

  static PageMarkdown convert(Element content, String baseUrl, int maxChars) {
    MarkdownWriter writer = new MarkdownWriter(baseUrl, maxChars);
    writer.children(content, 0);
    writer.flushParagraph();
    return writer.out.length() == 0 && !writer.truncated
        ? PageMarkdown.EMPTY
        : new PageMarkdown(writer.out.toString(), writer.truncated);
  }

  /**
   * A blockquote's or a list item's prefix: {@code first} on its first line, {@code rest} after.
   */
  private static final class Container {
    final String first;
    final String rest;
    final boolean isItem;
    boolean started;

    Container(String first, String rest, boolean isItem) {
      this.first = first;
      this.rest = rest;
      this.isItem = isItem;
    }
  }

  private void children(Element element, int depth) {
    for (int i = 0; i < element.childNodeSize() && !stopped; i++) {
      Node child = element.childNode(i);
      if (child instanceof TextNode text) {
        text(text.getWholeText());
      } else if (child instanceof Element childElement) {
        element(childElement, depth + 1);
      }
      // comments, data (script and style content) and doctypes are not text
    }
  }

  private void element(Element element, int depth) {
    String name = element.normalName();
    if (DROPPED.contains(name) || element.hasAttr("hidden")) {
      return;
    }
    if (depth > MAX_DEPTH) {
      text(element.text());
      return;
    }
    switch (name) {
      case "br" -> lineBreak();
      case "img" -> text(element.attr("alt"));
      case "a" -> link(element, depth);
      case "strong", "b" -> strong(element, depth);
      case "em", "i" -> emphasis(element, depth);
      case "del", "s", "strike" -> strikethrough(element, depth);
      case "code", "kbd", "samp", "tt" -> codeSpan(element.text());
      case "q" -> {
        writeSpace();
        int mark = inline.length();
        int before = taken;
        children(element, depth);
        wrap(mark, before, "\"", "\"");
      }
      case "math" -> text(element.hasAttr("alttext") ? element.attr("alttext") : element.text());
      default -> {
        if (BLOCKS.contains(name)) {
          block(element, name, depth);
        } else {
          children(element, depth); // an inline element, known or not: its content
        }
      }
    }
  }

  private void block(Element element, String name, int depth) {
    if (inlineOnly > 0) {
      // in a cell or a heading a block is its content between spaces
      pendingSpace = true;
      if (name.equals("pre")
          || name.equals("listing")
          || name.equals("xmp")
          || name.equals("plaintext")) {
        codeSpan(element.text());
      } else {
        children(element, depth);
      }
      pendingSpace = true;
      return;
    }
    switch (name) {
      case "h1", "h2", "h3", "h4", "h5", "h6" -> heading(element, name.charAt(1) - '0', depth);
      case "ul", "menu", "dir" -> list(element, false, depth);
      case "ol" -> list(element, true, depth);
      case "li" -> listItems(List.of(element), false, 1, depth); // outside a list
      case "pre", "listing", "xmp", "plaintext" -> codeBlock(element);
      case "blockquote" -> blockquote(element, depth);
      case "table" -> table(element, depth);
      case "hr" -> {
        flushParagraph();
        emitBlock(List.of("---"), Integer.MAX_VALUE);
      }
      case "dt" -> {
        flushParagraph();
        strong(element, depth);
        flushParagraph();
      }
      default -> {
        flushParagraph();
        children(element, depth);
        flushParagraph();
      }
    }
  }

  // inline content

  /** Text, whitespace collapsed and markdown's characters escaped. */
  private void text(String text) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (isPlain(c)) {
        // a run of characters written as they are, appended at once
        int end = i + 1;
        while (end < n && isPlain(text.charAt(end))) {
          end++;
        }
        writeSpace();
        inline.append(text, i, end);
        i = end;
        continue;
      }
      if (CollapsedText.isWhitespace(c)) {
        pendingSpace = true;
      } else if (c != '\u200B' && c != '\u00AD') {
        writeSpace();
        escape(text, i, c);
      }
      i++;
    }
    if (inline.length() > maxChars - out.length()) {
      // this block cannot fit: what follows it is not read
      stopped = true;
      truncated = true;
    }
  }

  /** Markup written as it is, after the pending space. */
  private void literal(String markup) {
    writeSpace();
    inline.append(markup);
  }

  private void writeSpace() {
    if (pendingSpace) {
      int length = inline.length();
      if (length > 0 && inline.charAt(length - 1) != ' ' && inline.charAt(length - 1) != '\n') {
        inline.append(' ');
      }
      pendingSpace = false;
    }
  }

  private void escape(String text, int i, char c) {
    switch (c) {
      case '\\', '`', '*', '[', ']', '<', '~' -> inline.append('\\').append(c);
      case '_' -> {
        // an underscore inside a word never emphasizes (CommonMark's flanking rules)
        char before = i > 0 ? text.charAt(i - 1) : lastInline();
        char after = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
        if (!Character.isLetterOrDigit(before) || !Character.isLetterOrDigit(after)) {
          inline.append('\\');
        }
        inline.append(c);
      }
      case '&' -> {
        if (isEntityAt(text, i)) {
          inline.append('\\');
        }
        inline.append(c);
      }
      case '|' -> {
        if (inCell > 0) {
          inline.append('\\');
        }
        inline.append(c);
      }
      default -> inline.append(c);
    }
  }

  /** Whether the character is written as it is: no whitespace, no markup, nothing dropped. */
  private static boolean isPlain(char c) {
    // a lookup for ASCII, small enough for C1 to inline into the per-character loops
    return c < 128 ? PLAIN_ASCII[c] : isPlainWide(c);
  }

  private static boolean isPlainWide(char c) {
    return c != '\u00A0' && c != '\u200B' && c != '\u00AD';
  }

  private char lastInline() {
    return inline.length() == 0 ? ' ' : inline.charAt(inline.length() - 1);
  }

  /** Whether an entity reference ({@code &amp;}, {@code &#38;}) starts at {@code i}. */
  private static boolean isEntityAt(String text, int i) {
    int j = i + 1;
    if (j < text.length() && text.charAt(j) == '#') {
      j++;
    }
    int start = j;
    while (j < text.length() && j - start < 32 && Character.isLetterOrDigit(text.charAt(j))) {
      j++;
    }
    return j > start && j < text.length() && text.charAt(j) == ';';
  }

  private void lineBreak() {
    if (inlineOnly > 0) {
      pendingSpace = true;
      return;
    }
    int length = inline.length();
    while (length > 0 && inline.charAt(length - 1) == ' ') {
      length--;
    }
    inline.setLength(length);
    inline.append('\n');
    pendingSpace = false;
  }

  private void codeSpan(String text) {
    String code = CollapsedText.collapseWhitespace(text);
    if (code.isEmpty()) {
      return;
    }
    if (inCell > 0) {
      code = code.replace("|", "\\|"); // a GFM table splits cells before reading code spans
    }
    String fence = "`".repeat(longestRun(code, '`') + 1);
    String pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
    if (lastInline() == '`') {
      pendingSpace = true; // two backtick runs side by side would read as one
    }
    literal(fence + pad + code + pad + fence);
  }

  private void strong(Element element, int depth) {
    if (inStrong) {
      children(element, depth);
      return;
    }
    inStrong = true;
    delimited(element, "**", depth);
    inStrong = false;
  }

  private void emphasis(Element element, int depth) {
    if (inEmphasis) {
      children(element, depth);
      return;
    }
    inEmphasis = true;
    delimited(element, "*", depth);
    inEmphasis = false;
  }

  private void strikethrough(Element element, int depth) {
    if (inStrikethrough) {
      children(element, depth);
      return;
    }
    inStrikethrough = true;
    delimited(element, "~~", depth);
    inStrikethrough = false;
  }

  /**
   * The element's content between delimiters that hug it: whitespace at either end of the content
   * goes outside them, and empty content gets none.
   */
  private void delimited(Element element, String delimiter, int depth) {
    if (inlineOnly == 0 && containsBlock(element)) {
      children(element, depth); // a block inside would end the paragraph between the delimiters
      return;
    }
    writeSpace();
    int mark = inline.length();
    int before = taken;
    children(element, depth);
    wrap(mark, before, delimiter, delimiter);
  }

  /**
   * Puts {@code open} and {@code close} around what was written inline since {@code mark}, less
   * whitespace at either end; returns false, and writes nothing, when that is empty or a block took
   * the content since ({@code before} is {@link #taken} at the mark).
   */
  private boolean wrap(int mark, int before, String open, String close) {
    if (taken != before) {
      return false;
    }
    int start = mark;
    int end = inline.length();
    while (start < end && isSpaceOrBreak(inline.charAt(start))) {
      start++;
    }
    while (end > start && isSpaceOrBreak(inline.charAt(end - 1))) {
      end--;
    }
    if (start == end) {
      return false;
    }
    String trailing = inline.substring(end);
    inline.setLength(end);
    inline.append(close).append(trailing);
    inline.insert(start, open);
    return true;
  }

  private static boolean isSpaceOrBreak(char c) {
    return c == ' ' || c == '\n';
  }

  private void link(Element element, int depth) {
    // no link in a link: the inner one is its text
    String url = inLink || blockLink != null ? null : linkTarget(element.attr("href"));
    if (url == null) {
      children(element, depth); // its text, not a link
      return;
    }
    if (inlineOnly == 0 && containsBlock(element)) {
      String outer = blockLink;
      blockLink = url;
      children(element, depth);
      flushParagraph(); // the link's last block
      blockLink = outer;
      return;
    }
    writeSpace();
    int mark = inline.length();
    int before = taken;
    inLink = true;
    children(element, depth);
    inLink = false;
    if (!wrap(mark, before, "[", "](" + url + ")") && taken == before) {
      // no text: an icon; nothing to link
      inline.setLength(mark);
    }
  }

  /**
   * The absolute URL a link names, written for a link destination, or null when it names none to
   * keep: empty, a script ({@code javascript:}, {@code vbscript:}), {@code data:}, or unresolvable.
   */
  private @Nullable String linkTarget(String href) {
    String reference = href.strip();
    if (reference.isEmpty()) {
      return null;
    }
    String scheme = reference.length() > 11 ? reference.substring(0, 11) : reference;
    scheme = scheme.toLowerCase(Locale.ROOT);
    if (scheme.startsWith("javascript:")
        || scheme.startsWith("vbscript:")
        || scheme.startsWith("data:")) {
      return null;
    }
    String absolute = base.resolve(reference);
    if (absolute.isEmpty()) {
      return null;
    }
    int first = 0;
    while (first < absolute.length() && !breaksDestination(absolute.charAt(first))) {
      first++;
    }
    if (first == absolute.length()) {
      return absolute; // nearly every link: nothing to encode, no copy
    }
    StringBuilder destination = new StringBuilder(absolute.length() + 8);
    destination.append(absolute, 0, first);
    for (int i = first; i < absolute.length(); i++) {
      char c = absolute.charAt(i);
      if (breaksDestination(c)) {
        destination.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        destination.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      } else {
        destination.append(c);
      }
    }
    return destination.toString();
  }

  /**
   * A character that would end or break a link destination, percent-encoded in one: a control
   * character, a space, {@code ( ) < > | \\}. A table lookup: small enough for C1 to inline.
   */
  private static boolean breaksDestination(char c) {
    return c < BREAKS_DESTINATION.length && BREAKS_DESTINATION[c];
  }

  private static boolean containsBlock(Element element) {
    boolean[] found = new boolean[1];
    NodeTraversor.filter(
        new NodeFilter() {
          @Override
          public FilterResult head(Node node, int depth) {
            if (depth > 0 && node instanceof Element child && BLOCKS.contains(child.normalName())) {
              found[0] = true;
              return FilterResult.STOP;
            }
            return FilterResult.CONTINUE;
          }
        },
        element);
    return found[0];
  }

  // blocks

  /**
   * The inline content gathered so far as paragraphs: one per run of lines, two line breaks in a
   * row starting a new one; each line but the last ends with a hard break.
   */
  private void flushParagraph() {
    pendingSpace = false;
    if (inline.length() == 0) {
      return;
    }
    String text = inline.toString();
    inline.setLength(0);
    taken++;
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start <= text.length() && !ended) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      String line = text.substring(start, end).strip();
      if (line.isEmpty()) {
        emitParagraph(lines);
      } else {
        lines.add(escapeLineStart(line));
      }
      start = end + 1;
    }
    emitParagraph(lines);
  }

  private void emitParagraph(List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    List<String> written = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (blockLink != null && i == 0) {
        line = "[" + line;
      }
      if (i < lines.size() - 1) {
        line = line + "\\"; // a hard line break
      } else if (blockLink != null) {
        line = line + "](" + blockLink + ")";
      }
      written.add(line);
    }
    lines.clear();
    emitBlock(written, Integer.MAX_VALUE);
  }

  /** A line that would start a block (a heading, a quote, a list item) as the text it is. */
  static String escapeLineStart(String line) {
    char c = line.charAt(0);
    if (c == '#' || c == '>') {
      return "\\" + line;
    }
    if ((c == '-' || c == '+')
        && (line.length() == 1 || line.charAt(1) == ' ' || isRunOf(line, c))) {
      return "\\" + line;
    }
    if (c == '=' && isRunOf(line, c)) {
      return "\\" + line;
    }
    int digits = 0;
    while (digits < line.length() && digits < 10 && Character.isDigit(line.charAt(digits))) {
      digits++;
    }
    if (digits > 0
        && digits < 10
        && digits < line.length()
        && (line.charAt(digits) == '.' || line.charAt(digits) == ')')
        && (digits + 1 == line.length() || line.charAt(digits + 1) == ' ')) {
      return line.substring(0, digits) + "\\" + line.substring(digits);
    }
    return line;
  }

  private static boolean isRunOf(String line, char c) {
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) != c && line.charAt(i) != ' ') {
        return false;
      }
    }
    return true;
  }

  private void heading(Element element, int level, int depth) {
    flushParagraph();
    String content = inlineContent(element, depth, false);
    if (content.isEmpty()) {
      return;
    }
    // a closing run of # would be read as the heading's closing sequence
    int run = content.length();
    while (run > 0 && content.charAt(run - 1) == '#') {
      run--;
    }
    if (run < content.length() && (run == 0 || content.charAt(run - 1) == ' ')) {
      content = content.substring(0, run) + "\\" + content.substring(run);
    }
    if (blockLink != null) {
      content = "[" + content + "](" + blockLink + ")";
    }
    emitBlock(List.of("#".repeat(level) + " " + content), Integer.MAX_VALUE);
  }

  /** The element's content on one line: blocks in it made spaces. */
  private String inlineContent(Element element, int depth, boolean cell) {
    inlineOnly++;
    if (cell) {
      inCell++;
    }
    children(element, depth);
    if (cell) {
      inCell--;
    }
    inlineOnly--;
    String content = inline.toString().replace('\n', ' ').strip();
    inline.setLength(0);
    taken++;
    pendingSpace = false;
    return content;
  }

  private void list(Element list, boolean ordered, int depth) {
    int start = 1;
    if (ordered && list.hasAttr("start")) {
      start = boundedInt(list.attr("start"), 1);
    }
    List<Node> items = new ArrayList<>(list.childNodeSize());
    for (Node child : list.childNodes()) {
      if (child instanceof Element || child instanceof TextNode text && !text.isBlank()) {
        items.add(child);
      }
    }
    listItems(items, ordered, start, depth);
  }

  /**
   * Each item behind its marker, continuation lines indented to the marker's width; items separated
   * by a line feed (a tight list). Text or elements directly in a list are items too.
   */
  private void listItems(List<? extends Node> items, boolean ordered, int start, int depth) {
    flushParagraph();
    Container enclosing = containers.isEmpty() ? null : containers.get(containers.size() - 1);
    // a list right after its item's text continues that item
    boolean continuesItem = enclosing != null && enclosing.isItem && enclosing.started;
    boolean alternate =
        out.length() == listEnd && containers.size() == listEndDepth && !listAlternate;
    int initial = separation;
    boolean first = true;
    int number = start;
    for (Node item : items) {
      if (stopped) {
        break;
      }
      if (item instanceof Element element && element.nameIs("li") && element.hasAttr("value")) {
        number = boundedInt(element.attr("value"), number);
      }
      String marker = ordered ? number + (alternate ? ") " : ". ") : alternate ? "* " : "- ";
      // (an ordered list that does not start at 1 cannot interrupt a paragraph)
      separation = !first || continuesItem && (!ordered || number == 1) ? LINE : initial;
      Container container = new Container(marker, " ".repeat(marker.length()), true);
      containers.add(container);
      if (item instanceof Element element) {
        if (element.nameIs("li")) {
          children(element, depth + 1);
        } else {
          element(element, depth + 1);
        }
      } else if (item instanceof TextNode text) {
        text(text.getWholeText());
      }
      flushParagraph();
      containers.remove(containers.size() - 1);
      first &= !container.started;
      number++;
    }
    separation = BLANK;
    if (!first) {
      listEnd = out.length();
      listEndDepth = containers.size();
      listAlternate = alternate;
    }
  }

  /** A number attribute, between 0 and 999,999,999 (the longest list number markdown reads). */
  private static int boundedInt(String value, int otherwise) {
    String number = value.strip();
    if (number.isEmpty()) {
      // an absent attribute (every table cell's colspan and rowspan): no exception to make, its
      // stack trace filled in each time, ~10 per page of a documentation site
      return otherwise;
    }
    try {
      return (int) Math.max(0, Math.min(999_999_999L, Long.parseLong(number)));
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  private void blockquote(Element element, int depth) {
    flushParagraph();
    containers.add(new Container("> ", "> ", false));
    children(element, depth);
    flushParagraph();
    containers.remove(containers.size() - 1);
  }

  private void codeBlock(Element pre) {
    flushParagraph();
    StringBuilder code = new StringBuilder();
    NodeTraversor.traverse(
        (node, depth) -> {
          if (node instanceof TextNode text) {
            code.append(text.getWholeText());
          } else if (node instanceof Element element && element.nameIs("br")) {
            code.append('\n');
          }
        },
        pre);
    List<String> lines = new ArrayList<>();
    int start = 0;
    int length = code.length();
    while (start <= length) {
      int end = start;
      while (end < length && code.charAt(end) != '\n' && code.charAt(end) != '\r') {
        end++;
      }
      lines.add(code.substring(start, end).stripTrailing());
      if (end + 1 < length && code.charAt(end) == '\r' && code.charAt(end + 1) == '\n') {
        end++;
      }
      start = end + 1;
    }
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    int first = 0;
    while (first < lines.size() && lines.get(first).isEmpty()) {
      first++;
    }
    if (first == lines.size()) {
      return;
    }
    int longest = 2;
    for (String line : lines) {
      longest = Math.max(longest, longestRun(line, '`'));
    }
    String fence = "`".repeat(longest + 1);
    List<String> block = new ArrayList<>(lines.size() - first + 2);
    block.add(fence + language(pre));
    block.addAll(lines.subList(first, lines.size()));
    block.add(fence);
    emitBlock(block, Integer.MAX_VALUE);
  }

  /**
   * A code block's language: a {@code language-xxx} or {@code lang-xxx} class of the {@code code}
   * in the block or of the block, else Sphinx's {@code highlight-xxx} on the element around it (not
   * {@code default}, {@code none} or {@code text}); empty when none is named.
   */
  static String language(Element pre) {
    Element code = pre.firstElementChild();
    if (code != null && code.nameIs("code")) {
      String language = languageClass(code, "language-", "lang-");
      if (!language.isEmpty()) {
        return language;
      }
    }
    String language = languageClass(pre, "language-", "lang-");
    if (!language.isEmpty()) {
      return language;
    }
    Element parent = pre.parent();
    if (parent != null && parent.hasClass("highlight") && parent.parent() != null) {
      language = languageClass(parent.parent(), "highlight-", "highlight-");
      if (!Set.of("default", "none", "text").contains(language)) {
        return language;
      }
    }
    return "";
  }

  private static String languageClass(Element element, String prefix, String otherPrefix) {
    if (!element.hasAttr("class")) {
      return "";
    }
    for (String name : element.classNames()) {
      String language =
          name.startsWith(prefix)
              ? name.substring(prefix.length())
              : name.startsWith(otherPrefix) ? name.substring(otherPrefix.length()) : null;
      if (language != null && isLanguageName(language)) {
        return language;
      }
    }
    return "";
  }

  private static boolean isLanguageName(String name) {
    if (name.isEmpty() || name.length() > MAX_LANGUAGE_CHARS) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c < 128 && Character.isLetterOrDigit(c))
          && c != '-'
          && c != '_'
          && c != '+'
          && c != '#'
          && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static int longestRun(String text, char c) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == c ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  private void table(Element table, int depth) {
    flushParagraph();
    Element caption = null;
    List<Element> rows = new ArrayList<>();
    List<Element> footRows = new ArrayList<>();
    boolean hasHead = false;
    for (Element child : table.children()) {
      switch (child.normalName()) {
        case "caption" -> caption = caption == null ? child : caption;
        case "thead" -> {
          // the head's rows go first, wherever it stands
          rows.addAll(hasHead ? rows.size() : 0, rowsOf(child));
          hasHead = true;
        }
        case "tbody" -> rows.addAll(rowsOf(child));
        case "tfoot" -> footRows.addAll(rowsOf(child));
        case "tr" -> rows.add(child);
        default -> {
          // colgroup, stray content: not rows
        }
      }
    }
    rows.addAll(footRows);
    if (caption != null) {
      block(caption, "caption", depth);
    }
    int widest = 0;
    for (Element row : rows) {
      widest = Math.max(widest, cellsOf(row).size());
    }
    if (widest <= 1) {
      // one column: a table laid out a page, not data; its cells are blocks
      for (Element row : rows) {
        for (Element cell : cellsOf(row)) {
          block(cell, "td", depth);
        }
      }
      return;
    }
    List<String> lines = tableLines(rows, depth);
    if (!lines.isEmpty()) {
      emitBlock(lines, 2);
    }
  }

  private static List<Element> rowsOf(Element section) {
    List<Element> rows = new ArrayList<>();
    for (Element child : section.children()) {
      if (child.nameIs("tr")) {
        rows.add(child);
      }
    }
    return rows;
  }

  private static List<Element> cellsOf(Element row) {
    List<Element> cells = new ArrayList<>();
    for (Element child : row.children()) {
      if (child.nameIs("td") || child.nameIs("th")) {
        cells.add(child);
      }
    }
    return cells;
  }

  /**
   * The table's lines: the first row as the header, the delimiter row with the header cells'
   * alignments, then the other rows; spanned cells empty. Stops reading rows past the bound.
   */
  private List<String> tableLines(List<Element> rows, int depth) {
    List<List<String>> grid = new ArrayList<>(rows.size());
    List<String> alignments = new ArrayList<>();
    int[] spanning = new int[MAX_SPAN]; // rows each column is still covered by a rowspan
    int columns = 0;
    long written = 0;
    for (Element row : rows) {
      List<String> cells = new ArrayList<>();
      int column = 0;
      for (Element cell : cellsOf(row)) {
        while (column < MAX_SPAN && spanning[column] > 0) {
          spanning[column]--;
          cells.add("");
          column++;
        }
        if (column >= MAX_SPAN) {
          break;
        }
        String content = inlineContent(cell, depth, true);
        written += content.length() + 3;
        int colspan = Math.min(boundedInt(cell.attr("colspan"), 1), MAX_SPAN - column);
        int rowspan = Math.min(boundedInt(cell.attr("rowspan"), 1), MAX_SPAN);
        for (int i = 0; i < Math.max(1, colspan); i++) {
          if (grid.isEmpty()) {
            alignments.add(alignment(cell));
          }
          cells.add(i == 0 ? content : "");
          spanning[column] = Math.max(spanning[column], rowspan - 1);
          column++;
        }
      }
      while (column < MAX_SPAN && spanning[column] > 0) {
        spanning[column]--;
        cells.add("");
        column++;
      }
      columns = Math.max(columns, cells.size());
      grid.add(cells);
      if (written > maxChars - out.length()) {
        // the rows after these cannot fit: not read
        stopped = true;
        truncated = true;
        break;
      }
    }
    List<String> lines = new ArrayList<>(grid.size() + 1);
    for (int r = 0; r < grid.size(); r++) {
      List<String> cells = grid.get(r);
      StringBuilder line = new StringBuilder("|");
      for (int c = 0; c < columns; c++) {
        String cell = c < cells.size() ? cells.get(c) : "";
        line.append(' ').append(cell).append(cell.isEmpty() ? "|" : " |");
      }
      lines.add(line.toString());
      if (r == 0) {
        StringBuilder delimiter = new StringBuilder("|");
        for (int c = 0; c < columns; c++) {
          delimiter.append(' ').append(c < alignments.size() ? alignments.get(c) : "---");
          delimiter.append(" |");
        }
        lines.add(delimiter.toString());
      }
    }
    return lines;
  }

  /** A header cell's alignment as the delimiter row writes it. */
  private static String alignment(Element cell) {
    String align = cell.attr("align").strip().toLowerCase(Locale.ROOT);
    if (align.isEmpty()) {
      String style = cell.attr("style").toLowerCase(Locale.ROOT);
      int at = style.indexOf("text-align");
      if (at >= 0) {
        int colon = style.indexOf(':', at);
        int end = style.indexOf(';', at);
        if (colon > 0 && (end < 0 || colon < end)) {
          align = style.substring(colon + 1, end < 0 ? style.length() : end).strip();
        }
      }
    }
    return switch (align) {
      case "left" -> ":---";
      case "right" -> "---:";
      case "center" -> ":---:";
      default -> "---";
    };
  }

  // output

  /**
   * Writes a block's lines behind the containers' prefixes. A block that does not fit the bound
   * ends the markdown: the lines from {@code divisibleFrom} on that fit are kept (a table's rows);
   * the first block of all is cut at the bound.
   */
  private void emitBlock(List<String> lines, int divisibleFrom) {
    if (ended) {
      return;
    }
    String firstPrefix = "";
    String restPrefix = "";
    String blankPrefix = "";
    if (!containers.isEmpty()) {
      StringBuilder first = new StringBuilder();
      StringBuilder rest = new StringBuilder();
      StringBuilder blank = new StringBuilder();
      for (Container container : containers) {
        first.append(container.started ? container.rest : container.first);
        rest.append(container.rest);
        if (container.started) {
          blank.append(container.rest);
        }
      }
      firstPrefix = first.toString();
      restPrefix = rest.toString();
      blankPrefix = blank.toString();
    }
    // the block is written straight into the markdown, and taken back when it does not fit
    int start = out.length();
    if (start > 0) {
      out.append('\n');
      if (separation == BLANK) {
        appendStripped(blankPrefix, "");
        out.append('\n');
      }
    }
    int fitting = 0;
    int fittingEnd = start;
    for (int i = 0; i < lines.size(); i++) {
      if (i > 0) {
        out.append('\n');
      }
      appendStripped(i == 0 ? firstPrefix : restPrefix, lines.get(i));
      if (out.length() > maxChars) {
        break;
      }
      fitting = i + 1;
      fittingEnd = out.length();
    }
    if (fitting == lines.size()) {
      for (Container container : containers) {
        container.started = true;
      }
      separation = BLANK;
      return;
    }
    truncated = true;
    ended = true;
    stopped = true;
    if (fitting > divisibleFrom) {
      out.setLength(fittingEnd);
    } else if (start == 0) {
      int end = Math.min(out.length(), maxChars);
      if (end > 0 && Character.isHighSurrogate(out.charAt(end - 1))) {
        end--;
      }
      out.setLength(end);
    } else {
      out.setLength(start);
    }
  }

  /** Appends the prefix and the line, without the white space they end with. */
  private void appendStripped(String prefix, String line) {
    int lineStart = out.length();
    out.append(prefix).append(line);
    int end = out.length();
    while (end > lineStart && Character.isWhitespace(out.charAt(end - 1))) {
      end--;
    }
    out.setLength(end);
  }
}
