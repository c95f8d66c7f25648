package dev.crawler.common.recovery;

import java.time.Instant;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * A transaction a partition holds open: its first record is at {@code startOffset}, so no
 * read_committed consumer reads past it until a commit or abort marker closes it.
 *
 * @param partition the partition whose last stable offset it holds
 * @param producerId the producer that opened it
 * @param producerEpoch the producer's epoch when it wrote here
 * @param coordinatorEpoch the epoch of the transaction coordinator that last wrote a marker here (0
 *     when none did)
 * @param startOffset the offset of its first record on the partition
 * @param lastWrite when the producer last wrote to the partition
 */
public record OpenTransaction(
    TopicPartition partition,
    long producerId,
    short producerEpoch,
    int coordinatorEpoch,
    long startOffset,
    Instant lastWrite) {

  /** What {@code Admin#abortTransaction} needs to write this transaction's abort marker. */
  public AbortTransactionSpec abortSpec() {
    return new AbortTransactionSpec(partition, producerId, producerEpoch, coordinatorEpoch);
  }

  /**
   * The command an operator runs to abort it by hand (Kafka's {@code kafka-transactions.sh}), when
   * the service may not.
   */
  public String abortCommand() {
    return "kafka-transactions.sh --bootstrap-server <broker> abort --topic "
        + partition.topic()
        + " --partition "
        + partition.partition()
        + " --start-offset "
        + startOffset;
  }

  @Override
  public String toString() {
    return partition
        + " from offset "
        + startOffset
        + " (producer "
        + producerId
        + ", epoch "
        + producerEpoch
        + ", last write "
        + lastWrite
        + ")";
  }
}
