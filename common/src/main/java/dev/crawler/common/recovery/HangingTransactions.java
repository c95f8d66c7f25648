package dev.crawler.common.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Which open transactions no coordinator will ever close: the rule of Kafka's {@code
 * kafka-transactions.sh find-hanging}, as a decision over what the partitions and the coordinators
 * say.
 *
 * <p>A coordinator lists, for a transactional id, every partition its ongoing transaction wrote to
 * and every partition still waiting for a marker of the transaction it is ending. A partition that
 * holds a transaction of that producer open but is not in the list will get no marker: the
 * transaction hangs, and every read_committed consumer of the partition (a Kafka Streams
 * restoration, a downstream reader) stops at its first offset for good. This happens, for one, when
 * a coordinator aborts a timed-out transaction while one of its partitions has no leader (a broker
 * restarting after a crash): the coordinator takes a leaderless partition for a deleted one and
 * completes the abort without writing that partition's marker.
 *
 * <p>Only transactions open for longer than the producer's transaction timeout are judged: a
 * coordinator aborts a transaction by then, so a younger one may still be ended normally.
 */
public final class HangingTransactions {

  /**
   * How long a transaction of a producer no coordinator knows may stay open before it is taken for
   * hanging: Kafka's default {@code transaction.max.timeout.ms}, the longest timeout a producer can
   * have been given.
   */
  public static final Duration UNKNOWN_PRODUCER_AGE = Duration.ofMinutes(15);

  /**
   * What a transaction coordinator says of a producer now.
   *
   * @param timeout the producer's transaction timeout
   * @param partitions the partitions of its ongoing transaction, or still waiting for a marker of
   *     the one it is ending; empty when it has none
   */
  public record CoordinatorView(Duration timeout, Set<TopicPartition> partitions) {

    public CoordinatorView {
      partitions = Set.copyOf(partitions);
    }
  }

  private HangingTransactions() {}

  /**
   * The open transactions that hang.
   *
   * @param open the transactions the partitions hold open
   * @param coordinators what the coordinators say, by producer id; a producer missing from it is
   *     one no coordinator knows (its transactional id expired or was never found)
   * @param now the time to measure a transaction's age against
   */
  public static List<OpenTransaction> hanging(
      Collection<OpenTransaction> open, Map<Long, CoordinatorView> coordinators, Instant now) {
    List<OpenTransaction> hanging = new ArrayList<>();
    for (OpenTransaction transaction : open) {
      if (isHanging(transaction, coordinators.get(transaction.producerId()), now)) {
        hanging.add(transaction);
      }
    }
    return hanging;
  }

  private static boolean isHanging(
      OpenTransaction transaction, CoordinatorView coordinator, Instant now) {
    Duration age = Duration.between(transaction.lastWrite(), now);
    if (coordinator == null) {
      // nobody will end it; wait as long as any producer's transaction may last
      return age.compareTo(UNKNOWN_PRODUCER_AGE) > 0;
    }
    if (coordinator.partitions().contains(transaction.partition())) {
      // the coordinator still means to write this partition's marker
      return false;
    }
    // past its timeout the coordinator has ended it, and this partition got no marker
    return age.compareTo(coordinator.timeout()) > 0;
  }
}
