package dev.crawler.fetcher.kafka;

import dev.crawler.fetcher.domain.OffsetTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request partitions this fetcher owns: per partition an {@link OffsetTracker} (which requests
 * are done, what may be committed) and what is outstanding (requests running over HTTP plus record
 * batches Kafka has not acknowledged). A partition's offsets are committed only up to the first
 * request whose results Kafka has not acknowledged. Owned by the fetch loop's thread.
 */
final class PartitionOffsets {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionOffsets.class);

  private final Consumer<byte[], byte[]> consumer;
  private final String topic;
  private final Duration commitTimeout;
  private final Map<TopicPartition, OffsetTracker> trackers = new HashMap<>();
  private final Map<TopicPartition, Integer> outstanding = new HashMap<>();

  /**
   * @param topic the request topic, whose partitions these are
   * @param commitTimeout how long one synchronous commit may wait for Kafka
   */
  PartitionOffsets(Consumer<byte[], byte[]> consumer, String topic, Duration commitTimeout) {
    this.consumer = consumer;
    this.topic = topic;
    this.commitTimeout = commitTimeout;
  }

  /**
   * A record was read; returns false when it needs no work (the partition's previous owner did it:
   * its result is written).
   */
  boolean received(TopicPartition partition, long offset) {
    return trackers.computeIfAbsent(partition, p -> new OffsetTracker()).received(offset);
  }

  /** The request at this offset is done: its results are acknowledged, or it needed none. */
  void done(TopicPartition partition, long offset) {
    OffsetTracker tracker = trackers.get(partition);
    if (tracker != null) {
      tracker.done(offset);
    }
  }

  /** Whether this fetcher still owns the partition (it was not revoked since). */
  boolean isOwned(TopicPartition partition) {
    return trackers.containsKey(partition);
  }

  /** Whether this fetcher owns the request topic's partition with this number. */
  boolean isOwned(int partition) {
    return trackers.containsKey(new TopicPartition(topic, partition));
  }

  /** Something of the partition (a request over HTTP, a batch of records) is now outstanding. */
  void started(TopicPartition partition) {
    outstanding.merge(partition, 1, Integer::sum);
  }

  /** Something of the partition that was outstanding is over. */
  void released(TopicPartition partition) {
    outstanding.computeIfPresent(partition, (p, count) -> count > 1 ? count - 1 : null);
  }

  /** Whether anything of these partitions is outstanding. */
  boolean hasOutstanding(Collection<TopicPartition> partitions) {
    return partitions.stream().anyMatch(outstanding::containsKey);
  }

  /**
   * The partitions are now this fetcher's: tracking resumes from what their previous owner
   * committed (its metadata lists the requests done beyond the committed offset).
   */
  void assigned(Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
    try {
      committed = consumer.committed(new HashSet<>(partitions), Duration.ofSeconds(10));
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot read the committed offsets of {}: requests done beyond them are fetched again: {}",
          partitions,
          e.toString());
    }
    for (TopicPartition partition : partitions) {
      OffsetAndMetadata last = committed.get(partition);
      trackers.put(partition, OffsetTracker.resuming(last == null ? null : last.metadata()));
    }
  }

  /** The partitions are no longer this fetcher's. */
  void forget(Collection<TopicPartition> partitions) {
    partitions.forEach(trackers::remove);
    partitions.forEach(outstanding::remove);
  }

  /**
   * Commits what may be committed of every partition without waiting; a commit Kafka refuses is
   * made again at the next one.
   */
  void commitAsync() {
    Map<TopicPartition, OffsetTracker.Commit> commits =
        commitsOf(new ArrayList<>(trackers.keySet()));
    if (commits.isEmpty()) {
      return;
    }
    try {
      consumer.commitAsync(
          offsets(commits),
          (committed, error) -> {
            if (error != null) {
              LOG.warn(
                  "committing offsets failed (they are committed again later): {}",
                  error.toString());
            } else {
              acknowledge(commits);
            }
          });
    } catch (WakeupException e) {
      // looking for the coordinator took the wake-up meant for the next poll; committed again later
      consumer.wakeup();
    } catch (KafkaException e) {
      LOG.warn("committing offsets failed (they are committed again later): {}", e.toString());
    }
  }

  /** Commits what may be committed of every partition, and waits. */
  void commitSync() {
    commitSync(new ArrayList<>(trackers.keySet()));
  }

  /**
   * Commits what may be committed of these partitions, and waits; a commit Kafka refuses (a
   * rebalance under way, a broker away) is made again later.
   */
  void commitSync(Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetTracker.Commit> commits = commitsOf(partitions);
    if (commits.isEmpty()) {
      return;
    }
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        consumer.commitSync(offsets(commits), commitTimeout);
        acknowledge(commits);
        return;
      } catch (WakeupException e) {
        // a completion woke the consumer: commit again
      } catch (KafkaException e) {
        LOG.warn(
            "committing offsets {} failed (they are committed again later): {}",
            offsets(commits),
            e.toString());
        return;
      }
    }
    LOG.warn("offsets {} not committed: the consumer kept being woken", offsets(commits));
  }

  /** What to commit for these partitions, each tracker told the consumer's position first. */
  private Map<TopicPartition, OffsetTracker.Commit> commitsOf(
      Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetTracker.Commit> commits = new HashMap<>();
    for (TopicPartition partition : partitions) {
      OffsetTracker tracker = trackers.get(partition);
      if (tracker != null) {
        readPosition(partition, tracker);
        tracker.commit().ifPresent(commit -> commits.put(partition, commit));
      }
    }
    return commits;
  }

  /**
   * Tells the tracker the consumer's position in the partition, when the consumer knows it without
   * asking the broker.
   */
  private void readPosition(TopicPartition partition, OffsetTracker tracker) {
    if (!consumer.assignment().contains(partition)) {
      return;
    }
    try {
      tracker.readUpTo(consumer.position(partition, Duration.ZERO));
    } catch (TimeoutException | IllegalStateException e) {
      // no position yet (just assigned): the next commit reads it
    } catch (WakeupException e) {
      consumer.wakeup(); // the wake-up was meant for the next poll (a completion, or stop())
    }
  }

  /** Kafka acknowledged these commits: their trackers ask for no commit until something changes. */
  private void acknowledge(Map<TopicPartition, OffsetTracker.Commit> commits) {
    commits.forEach(
        (partition, commit) -> {
          OffsetTracker tracker = trackers.get(partition);
          if (tracker != null) {
            tracker.committed(commit);
          }
        });
  }

  private static Map<TopicPartition, OffsetAndMetadata> offsets(
      Map<TopicPartition, OffsetTracker.Commit> commits) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    commits.forEach(
        (partition, commit) ->
            offsets.put(partition, new OffsetAndMetadata(commit.offset(), commit.metadata())));
    return offsets;
  }
}
