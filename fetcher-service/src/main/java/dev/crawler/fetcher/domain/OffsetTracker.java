package dev.crawler.fetcher.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The offsets of one partition that this fetcher received, and which of them are done (their result
 * acknowledged by Kafka). The committed offset is the first offset not yet done: committing it
 * never skips a request whose result was not produced, so a restart or rebalance loses nothing. The
 * offsets done beyond it (other origins' requests that went ahead of a waiting one) travel in the
 * commit's metadata, so the partition's next owner skips them instead of fetching them again. Not
 * thread-safe: owned by the fetch loop's thread.
 */
public final class OffsetTracker {

  /** What to commit: the offset and the offsets done beyond it. */
  public record Commit(long offset, String metadata) {}

  /** Prefix of the metadata written; other metadata is ignored. */
  static final String METADATA_PREFIX = "done:";

  /** The longest metadata written (the broker's offset.metadata.max.bytes is 4096 by default). */
  static final int MAX_METADATA_CHARS = 3500;

  private final TreeMap<Long, Boolean> received = new TreeMap<>();
  private final List<long[]> skipped;
  private long nextAfterDone = -1;

  /** The consumer's position in the partition: every record before it was received. */
  private long position = -1;

  /**
   * The last commit Kafka acknowledged: a commit that failed is made again, even when nothing has
   * changed since then.
   */
  private Commit lastCommitted = new Commit(-1, "");

  public OffsetTracker() {
    this(List.of());
  }

  /**
   * A tracker that treats these offset ranges (inclusive) as done already: a previous owner's
   * commit said so.
   */
  private OffsetTracker(List<long[]> skipped) {
    this.skipped = skipped;
  }

  /** A tracker that goes on from the metadata of the partition's last commit. */
  public static OffsetTracker resuming(@Nullable String metadata) {
    return new OffsetTracker(parse(metadata));
  }

  /**
   * Records a received offset; returns false when a previous owner did it already (its result is
   * written), so it is not to be done again.
   */
  public boolean received(long offset) {
    if (isSkipped(offset)) {
      received.put(offset, Boolean.TRUE);
      return false;
    }
    received.put(offset, Boolean.FALSE);
    return true;
  }

  /**
   * The consumer's position: every record before it was received. A transaction marker, or a record
   * of an aborted transaction, takes an offset no record is received at; with every received offset
   * done, the commit goes up to the position, so an idle partition's lag is 0 and not the marker
   * after its last request.
   */
  public void readUpTo(long position) {
    this.position = Math.max(this.position, position);
  }

  public void done(long offset) {
    if (received.containsKey(offset)) {
      received.put(offset, Boolean.TRUE);
    }
  }

  /**
   * What to commit now, when it differs from the last commit Kafka {@linkplain #committed(Commit)
   * acknowledged}: the first offset not done, and the ranges done beyond it as metadata. Done
   * offsets below it are forgotten. A commit that failed (a rebalance in progress, a broker away)
   * is asked for again until one is acknowledged, so the committed offset always catches up with
   * what was done.
   */
  public Optional<Commit> commit() {
    while (!received.isEmpty() && received.firstEntry().getValue()) {
      nextAfterDone = received.pollFirstEntry().getKey() + 1;
    }
    long offset =
        received.isEmpty()
            ? Math.max(nextAfterDone, position)
            : Math.max(nextAfterDone, received.firstKey());
    if (offset < 0) {
      return Optional.empty();
    }
    Commit commit = new Commit(offset, metadata());
    if (commit.equals(lastCommitted) || commit.offset() < lastCommitted.offset()) {
      return Optional.empty();
    }
    return Optional.of(commit);
  }

  /** Kafka acknowledged this commit. */
  public void committed(Commit commit) {
    if (commit.offset() >= lastCommitted.offset()) {
      lastCommitted = commit;
    }
  }

  private boolean isSkipped(long offset) {
    for (long[] range : skipped) {
      if (offset >= range[0] && offset <= range[1]) {
        return true;
      }
    }
    return false;
  }

  /**
   * The done offsets beyond the first one not done, as {@code done:a-b,c-d}, cut short when over
   * the size limit.
   */
  private String metadata() {
    StringBuilder text = new StringBuilder();
    long start = -1;
    long end = -1;
    for (Map.Entry<Long, Boolean> entry : received.entrySet()) {
      if (!entry.getValue()) {
        continue;
      }
      long offset = entry.getKey();
      if (start >= 0 && offset == end + 1) {
        end = offset;
        continue;
      }
      if (start >= 0 && !append(text, start, end)) {
        return text.toString();
      }
      start = offset;
      end = offset;
    }
    if (start >= 0) {
      append(text, start, end);
    }
    return text.toString();
  }

  private static boolean append(StringBuilder text, long start, long end) {
    String range = start == end ? Long.toString(start) : start + "-" + end;
    if (text.length() + range.length() + 1 > MAX_METADATA_CHARS) {
      return false; // the rest are fetched again by the next owner: at-least-once, never lost
    }
    text.append(text.length() == 0 ? METADATA_PREFIX : ",").append(range);
    return true;
  }

  private static List<long[]> parse(@Nullable String metadata) {
    List<long[]> ranges = new ArrayList<>();
    if (metadata == null || !metadata.startsWith(METADATA_PREFIX)) {
      return ranges;
    }
    try {
      for (String range : metadata.substring(METADATA_PREFIX.length()).split(",")) {
        int dash = range.indexOf('-');
        long start = Long.parseLong(dash < 0 ? range : range.substring(0, dash));
        long end = dash < 0 ? start : Long.parseLong(range.substring(dash + 1));
        ranges.add(new long[] {start, end});
      }
    } catch (NumberFormatException e) {
      return List.of(); // unreadable: everything is fetched again, nothing is lost
    }
    return ranges;
  }
}
