package dev.crawler.parser.domain;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The links a parser task sent to the frontier lately, so that a link found on many pages (a menu, a
 * footer) is sent once rather than once per page. Only an optimization: the frontier deduplicates every
 * URL itself, and it keeps the first depth and source it sees, which are the ones sent here. Holds at
 * most {@code capacity} URLs, forgetting the least recently seen. Not thread-safe: one per task.
 *
 * <p>Must be {@linkplain #clear() cleared} whenever the task's output may have been discarded (a
 * transaction aborted, the task re-initialized), or a link it remembers might never have reached the
 * frontier.
 */
public final class RecentLinks {

  private final int capacity;
  private final LinkedHashMap<String, Boolean> urls;

  /** @param capacity URLs remembered at most; 0 remembers none, so every link is sent */
  public RecentLinks(int capacity) {
    this.capacity = capacity;
    this.urls =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > RecentLinks.this.capacity;
          }
        };
  }

  /** Whether the URL was not sent lately; it counts as sent from now on. */
  public boolean isNew(String url) {
    if (capacity == 0) {
      return true;
    }
    return urls.put(url, Boolean.TRUE) == null;
  }

  public void clear() {
    urls.clear();
  }
}
