package dev.crawler.common.streams;

import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.processor.internals.DefaultKafkaClientSupplier;

/**
 * The transactions in which this process's stream threads write. Under exactly-once processing the
 * tasks of a stream thread write through one producer, in one transaction at a time, committed with
 * their input's offsets; an aborted transaction's output is discarded and its input processed
 * again. A processor that remembers what it wrote, so as not to write it again, remembers it with
 * {@link #current()}, and may rely on it once that transaction {@linkplain
 * Transaction#isCommitted() is committed} or while it is the thread's own open one: if that aborts,
 * what relied on it is processed again with it.
 *
 * <p>The streams services' producers come from {@link #clientSupplier()}, which ends the calling
 * thread's transaction whenever its producer commits (committed), aborts, or is closed (aborted: a
 * producer is closed when it is replaced after it was fenced, or at shutdown). A thread that never
 * writes through one (a test driver) keeps one open transaction.
 */
public final class StreamTransactions {

  /** One transaction of one stream thread: open until its producer commits or aborts it. */
  public static final class Transaction {
    private volatile boolean isEnded;
    private volatile boolean isCommitted;

    /** Whether it was committed: what was written in it stands. */
    public boolean isCommitted() {
      return isCommitted;
    }

    /**
     * Whether what was written in it stands, or will stand for whatever the calling thread writes
     * now: committed, or the calling thread's own open transaction.
     */
    public boolean holds() {
      return isCommitted || (!isEnded && this == CURRENT.get());
    }

    private void end(boolean committed) {
      this.isCommitted = committed;
      this.isEnded = true;
    }
  }

  private static final ThreadLocal<Transaction> CURRENT = ThreadLocal.withInitial(Transaction::new);

  private StreamTransactions() {}

  /** The calling thread's open transaction: what it writes now commits or aborts with it. */
  public static Transaction current() {
    return CURRENT.get();
  }

  /** Ends the calling thread's transaction, the next one opening at once. */
  static void end(boolean committed) {
    CURRENT.get().end(committed);
    CURRENT.set(new Transaction());
  }

  /**
   * Kafka Streams' clients, with producers that end the calling thread's transaction as they end
   * theirs.
   */
  public static KafkaClientSupplier clientSupplier() {
    return new DefaultKafkaClientSupplier() {
      @Override
      public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new TransactionEndingProducer(super.getProducer(config));
      }
    };
  }
}
