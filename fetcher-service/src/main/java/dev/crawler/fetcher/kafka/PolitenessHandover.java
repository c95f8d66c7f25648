package dev.crawler.fetcher.kafka;

import dev.crawler.common.kafka.TopicReader;
import dev.crawler.fetcher.domain.HostQueue;
import dev.crawler.fetcher.domain.OriginPoliteness;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Politeness that survives a change of owner: each origin's politeness state (next request time,
 * back-off, patience, pause) is shared on the compacted politeness topic, keyed by origin and
 * partitioned like the requests — all of it before a partition is handed over, and meanwhile what
 * must survive a crash ({@link OriginPoliteness#isWorthSharing}). A state back to fresh is
 * withdrawn with a tombstone. A newly assigned partition's states are read before any of its
 * requests start. Owned by the fetch loop's thread.
 */
final class PolitenessHandover {

  private static final Logger LOG = LoggerFactory.getLogger(PolitenessHandover.class);

  private final Consumer<byte[], byte[]> stateReader;
  private final String stateTopic;
  private final FetchRecords records;
  private final ResultWriter writer;
  private final PartitionOffsets offsets;
  private final Origins origins;
  private final InstantSource clock;
  private final Duration readTimeout;

  /**
   * @param stateReader reads the politeness topic's partitions (no group, assigned by hand)
   * @param readTimeout how long reading a partition's states may take
   */
  PolitenessHandover(
      Consumer<byte[], byte[]> stateReader,
      String stateTopic,
      FetchRecords records,
      ResultWriter writer,
      PartitionOffsets offsets,
      Origins origins,
      InstantSource clock,
      Duration readTimeout) {
    this.stateReader = stateReader;
    this.stateTopic = stateTopic;
    this.records = records;
    this.writer = writer;
    this.offsets = offsets;
    this.origins = origins;
    this.clock = clock;
    this.readTimeout = readTimeout;
  }

  /** Shares the state of the origins whose politeness changed, where it must survive a crash. */
  void shareChanged(long now) {
    for (HostQueue<Pending> host : origins.all()) {
      if (host.isPolitenessChanged()) {
        share(host, now, false);
      }
    }
  }

  /** Shares the whole state of these origins (they are handed over). */
  void shareAll(Collection<HostQueue<Pending>> hosts, long now) {
    for (HostQueue<Pending> host : hosts) {
      share(host, now, true);
    }
  }

  /** Withdraws the shared state of an origin this fetcher forgets while it owns it. */
  void withdraw(HostQueue<Pending> host) {
    if (host.isPolitenessShared()) {
      writer.sendUntracked(records.politenessWithdrawn(host.origin()));
      host.politenessShared(false);
    }
  }

  private void share(HostQueue<Pending> host, long now, boolean all) {
    if (!offsets.isOwned(host.partition())) {
      host.politenessChanged(false);
      return;
    }
    OriginPoliteness politeness = host.politeness();
    if (politeness.isDefault(now)) {
      withdraw(host);
      host.politenessChanged(false);
      return;
    }
    if (all || politeness.isWorthSharing(now)) {
      writer.sendUntracked(records.politeness(host.origin(), politeness.snapshot(now), now));
      host.politenessShared(true);
      host.politenessChanged(false);
    }
  }

  /**
   * Reads the politeness state of the origins of newly assigned partitions, before any of their
   * requests start; a state that cannot be read leaves its origin fresh.
   */
  void read(Collection<TopicPartition> partitions) {
    List<TopicPartition> statePartitions =
        partitions.stream().map(p -> new TopicPartition(stateTopic, p.partition())).toList();
    Map<String, OriginPoliteness.Snapshot> read = new HashMap<>();
    try {
      readAll(statePartitions, read);
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot read the politeness state of {}: starting their origins fresh: {}",
          partitions,
          e.toString());
    } finally {
      stateReader.assign(List.of());
    }
    long now = clock.millis();
    read.values().removeIf(snapshot -> snapshot.isSpent(now));
    origins.takeOver(read);
    LOG.info("assigned {}; politeness state of {} origins taken over", partitions, read.size());
  }

  private void readAll(
      List<TopicPartition> partitions, Map<String, OriginPoliteness.Snapshot> read) {
    new TopicReader(stateReader, "the politeness handed over")
        .readToEnd(
            partitions,
            readTimeout,
            raw -> {
              if (raw.key() != null) {
                readOne(raw, read);
              }
              return true;
            });
  }

  private void readOne(
      ConsumerRecord<byte[], byte[]> raw, Map<String, OriginPoliteness.Snapshot> read) {
    String origin = new String(raw.key(), StandardCharsets.UTF_8);
    try {
      Optional<OriginPoliteness.Snapshot> state = records.politenessIn(raw);
      if (state.isPresent()) {
        read.put(origin, state.get());
      } else {
        read.remove(origin);
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "politeness state of {} at {}-{}@{} cannot be read; starting it fresh: {}",
          origin,
          raw.topic(),
          raw.partition(),
          raw.offset(),
          e.toString());
    }
  }
}
