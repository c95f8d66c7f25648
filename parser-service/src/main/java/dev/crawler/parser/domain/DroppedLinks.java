package dev.crawler.parser.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The links of a page the parser left out at a bound, so that each can be told in the crawl log:
 * longer than {@code parser.max.link.chars}, or beyond {@code parser.max.outlinks}. Each is kept by
 * its first {@value #KEPT_CHARS} characters and its length, so its log line stays bounded; the
 * first {@value #MAX_KEPT} of a page are kept, the rest only counted.
 *
 * @param count how many links were left out
 * @param kept the first of them
 */
public record DroppedLinks(int count, List<Link> kept) {

  /** The characters of a dropped link kept for its log line. */
  public static final int KEPT_CHARS = 200;

  /** The dropped links of one page kept for the log. */
  public static final int MAX_KEPT = 100;

  public static final DroppedLinks NONE = new DroppedLinks(0, List.of());

  public DroppedLinks {
    kept = List.copyOf(kept);
  }

  /**
   * One link left out.
   *
   * @param start its first {@value #KEPT_CHARS} characters
   * @param length its length in characters
   * @param reason the bound: {@code URL_TOO_LONG} or {@code TOO_MANY_LINKS}
   */
  public record Link(String start, int length, String reason) {}

  /** Collects a page's dropped links. Not thread-safe. */
  static final class Collector {
    private final List<Link> kept = new ArrayList<>(0);
    private int count;

    void add(String url, String reason) {
      count++;
      if (kept.size() < MAX_KEPT) {
        kept.add(
            new Link(
                url.length() <= KEPT_CHARS ? url : url.substring(0, KEPT_CHARS),
                url.length(),
                reason));
      }
    }

    DroppedLinks result() {
      return count == 0 ? NONE : new DroppedLinks(count, kept);
    }
  }
}
