package dev.crawler.parser.domain;

import dev.crawler.common.streams.StreamTransactions;
import dev.crawler.common.streams.StreamTransactions.Transaction;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The links a parser task sent to the frontier lately, so that a link found on many pages (a menu,
 * a footer) is sent once rather than once per page. Only an optimization: the frontier deduplicates
 * every URL itself, and it keeps the first depth and source it sees, which are the ones sent here.
 * Holds at most {@code capacity} URLs, forgetting the least recently seen. Not thread-safe: the
 * parser's tasks share one and lock it while they use it.
 *
 * <p>A link is remembered for {@code maxAgeMillis} at most, then sent again: a recrawl that starts
 * later rediscovers every link, which its orphan detection relies on.
 *
 * <p>A link sent in a stream thread's {@linkplain StreamTransactions transaction} is remembered
 * with it, and keeps another from being sent only while that holds: once it committed, or within it
 * (an abort discards both). A link whose transaction aborted is sent again; one that another thread
 * sent in a transaction still open is sent too. So a task that moves to another thread, or a thread
 * that joins, finds what the others committed. Links remembered without a transaction (a loop that
 * writes through a producer of its own) must be {@linkplain #clear() cleared} whenever its output
 * may have been discarded, lest a link it remembers never reach the frontier.
 */
public final class RecentLinks {

  /** How long a link is remembered unless told otherwise. */
  public static final long DEFAULT_MAX_AGE_MILLIS = 10 * 60 * 1000;

  private final int capacity;
  private final long maxAgeMillis;
  private final LinkedHashMap<String, Sent> urls;

  /** When a URL was sent, and in which transaction (null: none). */
  private record Sent(long atMillis, @Nullable Transaction transaction) {

    boolean holds() {
      return transaction == null || transaction.holds();
    }
  }

  /**
   * @param capacity URLs remembered at most; 0 remembers none, so every link is sent
   */
  public RecentLinks(int capacity) {
    this(capacity, Long.MAX_VALUE);
  }

  /**
   * @param capacity URLs remembered at most; 0 remembers none, so every link is sent
   * @param maxAgeMillis how long a URL is remembered after it was sent
   */
  public RecentLinks(int capacity, long maxAgeMillis) {
    this.capacity = capacity;
    this.maxAgeMillis = maxAgeMillis;
    this.urls =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Sent> eldest) {
            return size() > RecentLinks.this.capacity;
          }
        };
  }

  /** Whether the URL was not sent lately; it counts as sent from now on. */
  public boolean isNew(String url) {
    return isNew(url, 0);
  }

  /**
   * Whether the URL was not sent within the maximum age before {@code nowMillis}; if so it counts
   * as sent now.
   */
  public boolean isNew(String url, long nowMillis) {
    return isNew(url, null, nowMillis);
  }

  /**
   * Whether the URL was not sent within the maximum age before {@code nowMillis}, in a transaction
   * that holds; if so it counts as sent now, in {@code transaction}.
   */
  public boolean isNew(String url, @Nullable Transaction transaction, long nowMillis) {
    if (capacity == 0) {
      return true;
    }
    Sent sent = urls.get(url);
    if (sent != null && nowMillis - sent.atMillis() < maxAgeMillis && sent.holds()) {
      return false;
    }
    urls.put(url, new Sent(nowMillis, transaction));
    return true;
  }

  public void clear() {
    urls.clear();
  }
}
