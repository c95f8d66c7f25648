package dev.crawler.committer.domain;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Inline markdown as plain text, one line at a time: a link or image, inline ({@code
 * [text](destination)}) or by reference ({@code [text][label]}, {@code [text][]}), becomes its text
 * and the destination goes; code spans keep their content (one space at each end dropped when both
 * have one); emphasis and strikethrough delimiters ({@code *}, {@code _}, {@code ~}, {@code ~~})
 * go, save an underscore inside a word and a delimiter between spaces; backslash escapes and a hard
 * break's backslash are resolved. A construct spanning lines (a code span or link broken across a
 * paragraph's lines) is left as its characters.
 *
 * <p>Linear in the line's length: code spans and brackets are matched in one pass each, before the
 * text is written. Thread-safe: no state between calls.
 */
final class InlineText {

  private InlineText() {}

  /** Appends the text of the inline markdown {@code s[from, to)} (one line) to {@code out}. */
  static void append(String s, int from, int to, StringBuilder out) {
    if (!hasSyntax(s, from, to)) {
      out.append(s, from, to);
      return;
    }
    int length = to - from;
    int[] codeClose = codeSpans(s, from, to);
    int[] bracket = new int[length];
    int[] paren = new int[length];
    match(s, from, to, codeClose, bracket, paren);
    // the ends of the links being read: at ']' the destination is skipped
    int[] linkClose = new int[8];
    int[] linkSkip = new int[8];
    int links = 0;
    int i = from;
    while (i < to) {
      if (links > 0 && i == linkClose[links - 1]) {
        i = linkSkip[--links];
        continue;
      }
      char c = s.charAt(i);
      int k = i - from;
      if (c == '\\') {
        if (i + 1 < to && isAsciiPunctuation(s.charAt(i + 1))) {
          out.append(s.charAt(i + 1));
          i += 2;
        } else {
          if (i + 1 < to) {
            out.append(c); // a backslash at the end of a line is a hard break
          }
          i++;
        }
      } else if (c == '`') {
        int run = run(s, i, to, '`');
        if (codeClose[k] >= 0) {
          codeSpan(s, i + run, from + codeClose[k], out);
          i = from + codeClose[k] + run;
        } else {
          out.append(s, i, i + run);
          i += run;
        }
      } else if (c == '!' && i + 1 < to && linkEnd(s, i + 1 - from, from, to, bracket, paren) > 0) {
        i++; // an image reads as its alternative text
      } else if (c == '[' && linkEnd(s, k, from, to, bracket, paren) > 0) {
        if (links == linkClose.length) {
          linkClose = Arrays.copyOf(linkClose, links * 2);
          linkSkip = Arrays.copyOf(linkSkip, links * 2);
        }
        linkClose[links] = from + bracket[k];
        linkSkip[links++] = linkEnd(s, k, from, to, bracket, paren);
        i++;
      } else if (c == '*' || c == '_' || c == '~') {
        int run = run(s, i, to, c);
        char before = i > from ? s.charAt(i - 1) : ' ';
        char after = i + run < to ? s.charAt(i + run) : ' ';
        boolean literal =
            (Character.isWhitespace(before) && Character.isWhitespace(after))
                || (c == '_'
                    && Character.isLetterOrDigit(before)
                    && Character.isLetterOrDigit(after))
                || (c == '~' && run > 2);
        if (literal) {
          out.append(s, i, i + run);
        }
        i += run;
      } else {
        out.append(c);
        i++;
      }
    }
  }

  private static boolean hasSyntax(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      switch (s.charAt(i)) {
        case '\\', '`', '*', '_', '~', '[', '!' -> {
          return true;
        }
        default -> {
          // plain
        }
      }
    }
    return false;
  }

  /**
   * For each backtick run that opens a code span, the offset (from {@code from}) of the run of the
   * same length that closes it; -1 elsewhere. A run preceded by a backslash opens nothing.
   */
  private static int[] codeSpans(String s, int from, int to) {
    int length = to - from;
    int[] close = new int[length];
    Arrays.fill(close, -1);
    // the next run of each length, found from the right
    int[] next = new int[length];
    Map<Integer, Integer> nextOfLength = new HashMap<>();
    for (int i = to - 1; i >= from; ) {
      if (s.charAt(i) != '`') {
        i--;
        continue;
      }
      int end = i + 1;
      while (i > from && s.charAt(i - 1) == '`') {
        i--;
      }
      int run = end - i;
      Integer after = nextOfLength.put(run, i);
      next[i - from] = after == null ? -1 : after - from;
      i--;
    }
    for (int i = from; i < to; ) {
      if (s.charAt(i) != '`') {
        i++;
        continue;
      }
      int run = run(s, i, to, '`');
      if (isEscaped(s, from, i) || next[i - from] < 0) {
        i += run;
        continue;
      }
      close[i - from] = next[i - from];
      i = from + next[i - from] + run;
    }
    return close;
  }

  /**
   * Matches brackets and parentheses outside code spans and escapes: {@code bracket[k]} is the
   * offset of the {@code ]} closing the {@code [} at k, {@code paren[k]} of the {@code )} closing
   * the {@code (} at k; -1 when none does.
   */
  private static void match(
      String s, int from, int to, int[] codeClose, int[] bracket, int[] paren) {
    Arrays.fill(bracket, -1);
    Arrays.fill(paren, -1);
    int[] brackets = new int[16];
    int[] parens = new int[16];
    int openBrackets = 0;
    int openParens = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      int k = i - from;
      if (c == '\\') {
        i++;
      } else if (c == '`') {
        int run = run(s, i, to, '`');
        i = (codeClose[k] >= 0 ? from + codeClose[k] + run : i + run) - 1;
      } else if (c == '[') {
        if (openBrackets == brackets.length) {
          brackets = Arrays.copyOf(brackets, openBrackets * 2);
        }
        brackets[openBrackets++] = k;
      } else if (c == ']' && openBrackets > 0) {
        bracket[brackets[--openBrackets]] = k;
      } else if (c == '(') {
        if (openParens == parens.length) {
          parens = Arrays.copyOf(parens, openParens * 2);
        }
        parens[openParens++] = k;
      } else if (c == ')' && openParens > 0) {
        paren[parens[--openParens]] = k;
      }
    }
  }

  /**
   * Where the link whose text opens with the {@code [} at offset k ends: past its destination
   * ({@code [text](destination)}) or its label ({@code [text][label]}, {@code [text][]}); -1 when
   * it is no such link.
   */
  private static int linkEnd(String s, int k, int from, int to, int[] bracket, int[] paren) {
    if (s.charAt(from + k) != '[' || bracket[k] < 0) {
      return -1;
    }
    int after = bracket[k] + 1;
    if (from + after >= to) {
      return -1;
    }
    char next = s.charAt(from + after);
    if (next == '(' && paren[after] >= 0) {
      return from + paren[after] + 1;
    }
    if (next == '[' && bracket[after] >= 0) {
      return from + bracket[after] + 1;
    }
    return -1;
  }

  /** A code span's content: one space at each end dropped when both have one. */
  private static void codeSpan(String s, int start, int end, StringBuilder out) {
    int a = start;
    int b = end;
    if (b - a >= 2 && s.charAt(a) == ' ' && s.charAt(b - 1) == ' ') {
      boolean allSpaces = true;
      for (int i = a; i < b && allSpaces; i++) {
        allSpaces = s.charAt(i) == ' ';
      }
      if (!allSpaces) {
        a++;
        b--;
      }
    }
    out.append(s, a, b);
  }

  private static boolean isEscaped(String s, int from, int i) {
    int backslashes = 0;
    for (int j = i - 1; j >= from && s.charAt(j) == '\\'; j--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  private static int run(String s, int i, int to, char c) {
    int j = i;
    while (j < to && s.charAt(j) == c) {
      j++;
    }
    return j - i;
  }

  private static boolean isAsciiPunctuation(char c) {
    return (c >= '!' && c <= '/')
        || (c >= ':' && c <= '@')
        || (c >= '[' && c <= '`')
        || (c >= '{' && c <= '~');
  }
}
