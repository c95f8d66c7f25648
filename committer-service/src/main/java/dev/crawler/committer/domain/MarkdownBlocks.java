package dev.crawler.committer.domain;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The blocks of a markdown text as {@link Chunker} splits it: ATX headings ({@code #} to {@code
 * ######} at the start of a line, up to three spaces in), fenced code blocks ({@code ```} or {@code
 * ~~~}, blank lines in them included) and runs of other non-blank lines (a paragraph, a list, a GFM
 * table, a blockquote), in one pass over the lines.
 *
 * <p>Lenient where exactness buys nothing for splitting: a fence is recognised behind blockquote
 * markers and list markers at any indentation, and closed by a run of its marker at least as long
 * whatever the container; setext headings ({@code ===} or {@code ---} under a line) are read as
 * text, as the parser writes ATX headings only. Lines end at {@code \n}; a {@code \r} before it is
 * whitespace.
 */
final class MarkdownBlocks {

  /** What a block is. */
  enum Kind {
    HEADING,
    FENCE,
    TEXT
  }

  /**
   * An opening code fence.
   *
   * @param marker {@code `} or {@code ~}
   * @param length how many markers open it: a closing fence has at least as many
   * @param indent the column its marker starts at (behind any container markers)
   * @param bodyStart the offset of the line after the opening fence
   */
  record Fence(char marker, int length, int indent, int bodyStart) {}

  /**
   * A block: {@code [start, end)} of the markdown, from the first character of its first line to
   * the last non-whitespace character of its last line.
   *
   * @param level 1 to 6 for a heading, else 0
   * @param fence the opening fence of a code block, else null
   */
  record Block(Kind kind, int start, int end, int level, @Nullable Fence fence) {

    int length() {
      return end - start;
    }
  }

  private MarkdownBlocks() {}

  /** The markdown's blocks, in order. Linear in the markdown's length. */
  static List<Block> of(String markdown) {
    List<Block> blocks = new ArrayList<>();
    int n = markdown.length();
    int textStart = -1;
    int textEnd = -1;
    Fence open = null;
    int fenceStart = -1;
    int fenceEnd = -1;
    int lineStart = 0;
    while (lineStart < n) {
      int eol = markdown.indexOf('\n', lineStart);
      if (eol < 0) {
        eol = n;
      }
      int end = trimEnd(markdown, lineStart, eol);
      if (open != null) {
        if (closes(markdown, lineStart, end, open)) {
          blocks.add(new Block(Kind.FENCE, fenceStart, end, 0, open));
          open = null;
        } else if (end > lineStart) {
          fenceEnd = end;
        }
      } else if (end == lineStart) {
        // a blank line ends the text block
        if (textStart >= 0) {
          blocks.add(new Block(Kind.TEXT, textStart, textEnd, 0, null));
          textStart = -1;
        }
      } else {
        int level = headingLevel(markdown, lineStart, end);
        Fence opening = level > 0 ? null : opening(markdown, lineStart, end, eol + 1);
        if (level > 0 || opening != null) {
          // a heading or a fence interrupts a paragraph
          if (textStart >= 0) {
            blocks.add(new Block(Kind.TEXT, textStart, textEnd, 0, null));
            textStart = -1;
          }
          if (level > 0) {
            blocks.add(new Block(Kind.HEADING, lineStart, end, level, null));
          } else {
            open = opening;
            fenceStart = lineStart;
            fenceEnd = end;
          }
        } else {
          if (textStart < 0) {
            textStart = lineStart;
          }
          textEnd = end;
        }
      }
      lineStart = eol + 1;
    }
    if (open != null) {
      // a fence the markdown never closes runs to its end
      blocks.add(new Block(Kind.FENCE, fenceStart, fenceEnd, 0, open));
    }
    if (textStart >= 0) {
      blocks.add(new Block(Kind.TEXT, textStart, textEnd, 0, null));
    }
    return blocks;
  }

  /** The level of the ATX heading on the line {@code [start, end)}, or 0 when it is none. */
  static int headingLevel(CharSequence text, int start, int end) {
    int i = start;
    while (i < end && i - start < 3 && text.charAt(i) == ' ') {
      i++;
    }
    int marks = 0;
    while (i + marks < end && text.charAt(i + marks) == '#') {
      marks++;
    }
    if (marks == 0 || marks > 6) {
      return 0;
    }
    int after = i + marks;
    return after == end || text.charAt(after) == ' ' || text.charAt(after) == '\t' ? marks : 0;
  }

  /**
   * Where a line's content starts behind blockquote markers and bullet list markers ({@code -},
   * {@code *}, {@code +}); ordered list markers are left, as their number is text.
   */
  static int contentStart(CharSequence text, int start, int end) {
    int i = start;
    while (true) {
      while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
        i++;
      }
      if (i < end && text.charAt(i) == '>') {
        i++;
      } else if (i + 1 < end
          && (text.charAt(i) == '-' || text.charAt(i) == '*' || text.charAt(i) == '+')
          && (text.charAt(i + 1) == ' ' || text.charAt(i + 1) == '\t')) {
        i += 2;
      } else {
        return i;
      }
    }
  }

  /** Past an ordered list marker ({@code 1.} or {@code 1)} and a space) at {@code i}, else i. */
  static int pastOrderedMarker(CharSequence text, int i, int end) {
    int j = i;
    while (j < end && j - i < 9 && text.charAt(j) >= '0' && text.charAt(j) <= '9') {
      j++;
    }
    if (j > i
        && j + 1 < end
        && (text.charAt(j) == '.' || text.charAt(j) == ')')
        && text.charAt(j + 1) == ' ') {
      return j + 2;
    }
    return i;
  }

  /** The fence the line {@code [start, end)} opens, or null. */
  static @Nullable Fence opening(CharSequence text, int start, int end, int bodyStart) {
    int i = contentStart(text, start, end);
    i = pastOrderedMarker(text, i, end);
    while (i < end && text.charAt(i) == ' ') {
      i++;
    }
    if (i >= end || (text.charAt(i) != '`' && text.charAt(i) != '~')) {
      return null;
    }
    char marker = text.charAt(i);
    int run = runOf(text, i, end, marker);
    if (run < 3) {
      return null;
    }
    if (marker == '`') {
      // a backtick fence's info string has no backtick: ```a``` is a code span
      for (int j = i + run; j < end; j++) {
        if (text.charAt(j) == '`') {
          return null;
        }
      }
    }
    return new Fence(marker, run, i - start, bodyStart);
  }

  /** Whether the line {@code [start, end)} closes the fence. */
  static boolean closes(CharSequence text, int start, int end, Fence fence) {
    int i = contentStart(text, start, end);
    int run = runOf(text, i, end, fence.marker());
    if (run < fence.length()) {
      return false;
    }
    for (int j = i + run; j < end; j++) {
      if (text.charAt(j) != ' ' && text.charAt(j) != '\t') {
        return false;
      }
    }
    return true;
  }

  private static int runOf(CharSequence text, int i, int end, char c) {
    int j = i;
    while (j < end && text.charAt(j) == c) {
      j++;
    }
    return j - i;
  }

  /** The end of the line {@code [start, end)} less its trailing whitespace. */
  static int trimEnd(CharSequence text, int start, int end) {
    int e = end;
    while (e > start && isSpace(text.charAt(e - 1))) {
      e--;
    }
    return e;
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000B';
  }
}
