package dev.crawler.committer.domain;

import dev.crawler.committer.domain.MarkdownBlocks.Fence;
import org.jspecify.annotations.Nullable;

/**
 * A chunk's markdown as plain text, for embedding and display: the words kept, the syntax gone.
 *
 * <ul>
 *   <li>Headings lose their {@code #} marks (and closing sequence); blockquote markers and bullet
 *       list markers go, ordered list numbers stay; thematic breaks go.
 *   <li>Fenced code keeps its lines as they are; the fences and their language go.
 *   <li>A GFM table's rows become lines of cells separated by a tab; its delimiter row goes.
 *   <li>Each line's inline content as {@link InlineText} reads it: links as their text, code spans
 *       as their content, no emphasis marks; a link reference definition line goes.
 *   <li>Blank lines between blocks are kept, one at most; no blank line at either end.
 * </ul>
 *
 * <p>Never longer than its markdown; linear in its length. Raw HTML and entity references are left
 * as they are (the parser writes neither). Thread-safe: no state between calls.
 */
final class MarkdownText {

  private MarkdownText() {}

  /**
   * The plain text of {@code markdown}.
   *
   * @param open the fence {@code markdown} starts inside (a piece of a code block split at its
   *     lines), else null
   */
  static String of(String markdown, @Nullable Fence open) {
    StringBuilder out = new StringBuilder(markdown.length());
    Fence fence = open;
    boolean inTable = false;
    boolean pendingBlank = false;
    int n = markdown.length();
    int lineStart = 0;
    while (lineStart <= n) {
      int eol = markdown.indexOf('\n', lineStart);
      if (eol < 0) {
        eol = n;
      }
      int end = MarkdownBlocks.trimEnd(markdown, lineStart, eol);
      int mark = out.length();
      int separated = -1;
      if (fence != null) {
        if (MarkdownBlocks.closes(markdown, lineStart, end, fence)) {
          fence = null;
        } else if (end == lineStart) {
          pendingBlank = out.length() > 0;
        } else {
          separated = separate(out, pendingBlank);
          codeLine(markdown, lineStart, end, fence.indent(), out);
        }
      } else if (end == lineStart) {
        inTable = false;
        pendingBlank = out.length() > 0;
      } else if (!isThematicBreak(markdown, lineStart, end)) {
        int content = MarkdownBlocks.contentStart(markdown, lineStart, end);
        Fence opening = MarkdownBlocks.opening(markdown, lineStart, end, eol + 1);
        if (opening != null) {
          fence = opening;
        } else if (MarkdownBlocks.headingLevel(markdown, content, end) > 0) {
          // a heading, or one in a blockquote or a list item
          separated = separate(out, pendingBlank);
          heading(markdown, content, end, out);
        } else if (isDelimiterRow(markdown, content, end)) {
          inTable = true;
        } else if (isLinkDefinition(markdown, content, end)) {
          // a reference link's destination: no text
        } else if (inTable
            || isPipedRow(markdown, content, end)
            || isHeaderRow(markdown, content, end, eol)) {
          separated = separate(out, pendingBlank);
          row(markdown, content, end, out);
        } else {
          separated = separate(out, pendingBlank);
          InlineText.append(markdown, content, end, out);
        }
      }
      if (separated >= 0) {
        if (out.length() > separated) {
          pendingBlank = false;
        } else {
          out.setLength(mark); // the line came to nothing: so does its separator
        }
      }
      lineStart = eol + 1;
    }
    int end = out.length();
    while (end > 0 && Character.isWhitespace(out.charAt(end - 1))) {
      end--;
    }
    out.setLength(end);
    return out.toString();
  }

  /** A heading's text: its marks, closing sequence and inline syntax gone. */
  static String heading(String markdown, int start, int end) {
    StringBuilder out = new StringBuilder(end - start);
    heading(markdown, start, end, out);
    return out.toString();
  }

  private static void heading(String markdown, int start, int end, StringBuilder out) {
    int i = start;
    while (i < end && (markdown.charAt(i) == ' ' || markdown.charAt(i) == '#')) {
      i++;
    }
    int e = MarkdownBlocks.trimEnd(markdown, i, end);
    int closing = e;
    while (closing > i && markdown.charAt(closing - 1) == '#') {
      closing--;
    }
    if (closing == i
        || markdown.charAt(closing - 1) == ' '
        || markdown.charAt(closing - 1) == '\t') {
      e = MarkdownBlocks.trimEnd(markdown, i, closing);
    }
    InlineText.append(markdown, i, e, out);
  }

  /** Separates the next line from the text before it; the length the text then has. */
  private static int separate(StringBuilder out, boolean blank) {
    if (out.length() > 0) {
      out.append(blank ? "\n\n" : "\n");
    }
    return out.length();
  }

  /** A code line less the container markers and indentation its fence stands behind. */
  private static void codeLine(String markdown, int start, int end, int indent, StringBuilder out) {
    int i = start;
    while (i < end && i - start < indent && isContainerChar(markdown.charAt(i))) {
      i++;
    }
    out.append(markdown, i, end);
  }

  private static boolean isContainerChar(char c) {
    return c == ' ' || c == '\t' || c == '>';
  }

  /** {@code ---}, {@code ***} or {@code ___}, three or more, spaces between allowed. */
  private static boolean isThematicBreak(String markdown, int start, int end) {
    char mark = 0;
    int count = 0;
    for (int i = start; i < end; i++) {
      char c = markdown.charAt(i);
      if (c == ' ' || c == '\t') {
        continue;
      }
      if ((c != '-' && c != '*' && c != '_') || (mark != 0 && c != mark)) {
        return false;
      }
      mark = c;
      count++;
    }
    return count >= 3;
  }

  /** A GFM table's delimiter row: pipes, colons, hyphens and spaces, a pipe and a hyphen in it. */
  private static boolean isDelimiterRow(String markdown, int start, int end) {
    boolean pipe = false;
    boolean hyphen = false;
    for (int i = start; i < end; i++) {
      char c = markdown.charAt(i);
      if (c == '|') {
        pipe = true;
      } else if (c == '-') {
        hyphen = true;
      } else if (c != ':' && c != ' ' && c != '\t') {
        return false;
      }
    }
    return pipe && hyphen;
  }

  /**
   * A row between pipes, as the parser writes every table row: read as one even without its header
   * (a piece of a table too large for one chunk).
   */
  private static boolean isPipedRow(String markdown, int start, int end) {
    return end - start >= 2
        && markdown.charAt(start) == '|'
        && markdown.charAt(end - 1) == '|'
        && markdown.charAt(end - 2) != '\\';
  }

  /** {@code [label]: destination}, a reference link's definition. */
  private static boolean isLinkDefinition(String markdown, int start, int end) {
    if (start >= end || markdown.charAt(start) != '[') {
      return false;
    }
    for (int i = start + 1; i < end; i++) {
      char c = markdown.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '[') {
        return false;
      } else if (c == ']') {
        return i > start + 1 && i + 1 < end && markdown.charAt(i + 1) == ':';
      }
    }
    return false;
  }

  /** Whether the line has a pipe and the next line is a delimiter row. */
  private static boolean isHeaderRow(String markdown, int start, int end, int eol) {
    int pipe = markdown.indexOf('|', start);
    if (pipe < 0 || pipe >= end || eol >= markdown.length()) {
      return false;
    }
    int next = eol + 1;
    int nextEol = markdown.indexOf('\n', next);
    int nextEnd = MarkdownBlocks.trimEnd(markdown, next, nextEol < 0 ? markdown.length() : nextEol);
    return isDelimiterRow(markdown, MarkdownBlocks.contentStart(markdown, next, nextEnd), nextEnd);
  }

  /** A table row's cells, separated by a tab, split at pipes that are not escaped. */
  private static void row(String markdown, int start, int end, StringBuilder out) {
    int s = start;
    int e = end;
    if (s < e && markdown.charAt(s) == '|') {
      s++;
    }
    if (e > s
        && markdown.charAt(e - 1) == '|'
        && (e - 2 < start || markdown.charAt(e - 2) != '\\')) {
      e--;
    }
    int cell = s;
    boolean first = true;
    for (int i = s; i <= e; i++) {
      if (i == e || (markdown.charAt(i) == '|' && markdown.charAt(i - 1) != '\\')) {
        int a = cell;
        while (a < i && markdown.charAt(a) == ' ') {
          a++;
        }
        int b = MarkdownBlocks.trimEnd(markdown, a, i);
        if (!first) {
          out.append('\t');
        }
        InlineText.append(markdown, a, b, out);
        first = false;
        cell = i + 1;
      }
    }
  }
}
