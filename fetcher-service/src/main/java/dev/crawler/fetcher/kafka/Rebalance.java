package dev.crawler.fetcher.kafka;

import dev.crawler.fetcher.domain.HostQueue;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands partitions over politely before they go — the requests of their origins that are running
 * finish and their results are written, each origin's politeness state is shared, the offsets are
 * committed — and reads the politeness state of partitions that come before any of their requests
 * start. Runs on the fetch loop's thread, inside the consumer's poll.
 */
final class Rebalance implements ConsumerRebalanceListener {

  private static final Logger LOG = LoggerFactory.getLogger(Rebalance.class);

  private final PartitionOffsets offsets;
  private final ResultWriter writer;
  private final Origins origins;
  private final PolitenessHandover handover;
  private final LoopTasks tasks;
  private final InstantSource clock;
  private final Duration handoverTimeout;

  /**
   * @param handoverTimeout how long a revoked partition's running requests may take to finish
   */
  Rebalance(
      PartitionOffsets offsets,
      ResultWriter writer,
      Origins origins,
      PolitenessHandover handover,
      LoopTasks tasks,
      InstantSource clock,
      Duration handoverTimeout) {
    this.offsets = offsets;
    this.writer = writer;
    this.origins = origins;
    this.handover = handover;
    this.tasks = tasks;
    this.clock = clock;
    this.handoverTimeout = handoverTimeout;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    tasks.handingOver(true);
    try {
      finishRunning(partitions);
      List<HostQueue<Pending>> leaving = origins.of(numbers(partitions)::contains);
      handover.shareAll(leaving, clock.millis());
      writer.flush();
      // the acknowledgements the flush brought mark their requests done before the last commit
      tasks.runAll();
      offsets.commitSync(partitions);
      LOG.info("handed over {} ({} origins)", partitions, leaving.size());
    } finally {
      tasks.handingOver(false);
    }
    forget(partitions);
  }

  /** Waits (up to the hand-over timeout) for the partitions' running requests and their records. */
  private void finishRunning(Collection<TopicPartition> partitions) {
    long deadline = System.nanoTime() + handoverTimeout.toNanos();
    // with Kafka taking no writes (the broker away), what is still outstanding cannot be written:
    // no waiting for it
    while (offsets.hasOutstanding(partitions)
        && !writer.isStalled()
        && System.nanoTime() < deadline) {
      if (!tasks.runNext(20)) {
        return;
      }
    }
    tasks.runAll();
    if (offsets.hasOutstanding(partitions)) {
      LOG.warn(
          "requests of {} still running after {}: their next owner fetches them again",
          partitions,
          handoverTimeout);
    }
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    forget(partitions);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    offsets.assigned(partitions);
    handover.read(partitions);
  }

  private void forget(Collection<TopicPartition> partitions) {
    offsets.forget(partitions);
    writer.forget(partitions);
    origins.forgetPartitions(numbers(partitions)::contains);
  }

  private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
    return partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
  }
}
