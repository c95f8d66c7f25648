package dev.crawler.fetcher.domain;

import java.util.Optional;
import java.util.TreeMap;

/**
 * The offsets of one partition that this fetcher received, and which of them are done (their result
 * acknowledged by Kafka). The committable offset is the first offset not yet done: committing it never
 * skips a request whose result was not produced, so a restart or rebalance loses nothing. Not
 * thread-safe: owned by the fetch loop's thread.
 */
public final class OffsetTracker {

  private final TreeMap<Long, Boolean> received = new TreeMap<>();
  private long lastCommitted = -1;

  public void received(long offset) {
    received.put(offset, Boolean.FALSE);
  }

  public void done(long offset) {
    if (received.containsKey(offset)) {
      received.put(offset, Boolean.TRUE);
    }
  }

  /**
   * The offset to commit now, when it moved since the last commit: one past the last of the leading
   * done offsets. Done offsets below it are forgotten.
   */
  public Optional<Long> committable() {
    Long next = null;
    while (!received.isEmpty() && received.firstEntry().getValue()) {
      next = received.pollFirstEntry().getKey() + 1;
    }
    if (next == null || next <= lastCommitted) {
      return Optional.empty();
    }
    lastCommitted = next;
    return Optional.of(next);
  }

  /** Offsets received and not yet committable. */
  public int pending() {
    return received.size();
  }
}
