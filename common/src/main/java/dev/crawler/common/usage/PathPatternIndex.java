package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Path patterns and what each one carries, indexed by the literal text a pattern starts with (up to
 * its first {@code *} or final {@code $}), so that finding the patterns that match a path looks
 * only at those whose literal start the path begins with: a few hash lookups, however many patterns
 * a large robots.txt has.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> what a pattern carries
 */
final class PathPatternIndex<T> {

  /** A pattern and what it carries. */
  record Entry<T>(PathPattern pattern, T value) {}

  private final Map<String, List<Entry<T>>> byLiteralStart;

  /** The distinct lengths of the literal starts, ascending. */
  private final int[] startLengths;

  PathPatternIndex(List<Entry<T>> entries) {
    Map<String, List<Entry<T>>> index = new HashMap<>();
    TreeSet<Integer> lengths = new TreeSet<>();
    for (Entry<T> entry : entries) {
      String start = literalStart(entry.pattern().pattern());
      index.computeIfAbsent(start, key -> new ArrayList<>()).add(entry);
      lengths.add(start.length());
    }
    index.replaceAll((start, list) -> List.copyOf(list));
    this.byLiteralStart = Map.copyOf(index);
    this.startLengths = lengths.stream().mapToInt(Integer::intValue).toArray();
  }

  boolean isEmpty() {
    return byLiteralStart.isEmpty();
  }

  /**
   * The entries whose pattern matches {@code path} ({@linkplain PathPattern#normalize normalized}),
   * grouped by literal start, shortest start first; in the order given within a group.
   */
  List<Entry<T>> matching(String path) {
    List<Entry<T>> found = new ArrayList<>();
    for (int length : startLengths) {
      if (length > path.length()) {
        break;
      }
      List<Entry<T>> candidates = byLiteralStart.get(path.substring(0, length));
      if (candidates != null) {
        for (Entry<T> candidate : candidates) {
          if (candidate.pattern().matches(path)) {
            found.add(candidate);
          }
        }
      }
    }
    return found;
  }

  /** The pattern's text before its first {@code *}, without a final {@code $}. */
  private static String literalStart(String pattern) {
    int star = pattern.indexOf('*');
    String start = star < 0 ? pattern : pattern.substring(0, star);
    return star < 0 && start.endsWith("$") ? start.substring(0, start.length() - 1) : start;
  }
}
