package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.common.streams.StreamTransactions.Transaction;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A stream thread's transactions, as its producer commits, aborts or is closed. */
class StreamTransactionsTest {

  private final MockProducer<byte[], byte[]> kafka =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final TransactionEndingProducer producer = new TransactionEndingProducer(kafka);

  @BeforeEach
  void begin() {
    StreamTransactions.end(false); // whatever an earlier test left open on this thread
    producer.initTransactions();
    producer.beginTransaction();
    producer.send(new ProducerRecord<>("out", new byte[] {1}));
  }

  @AfterEach
  void end() {
    StreamTransactions.end(false);
  }

  @Test
  void anOpenTransactionHoldsOnlyForItsOwnThread() {
    Transaction open = StreamTransactions.current();

    assertThat(open.holds()).isTrue();
    assertThat(open.isCommitted()).isFalse();
    assertThat(CompletableFuture.supplyAsync(open::holds).join()).isFalse();
    assertThat(CompletableFuture.supplyAsync(StreamTransactions::current).join()).isNotSameAs(open);
  }

  @Test
  void aCommitEndsItCommittedAndOpensTheNext() {
    Transaction open = StreamTransactions.current();

    producer.commitTransaction();

    assertThat(kafka.transactionCommitted()).isTrue();
    assertThat(open.isCommitted()).isTrue();
    assertThat(CompletableFuture.supplyAsync(open::holds).join()).isTrue();
    Transaction next = StreamTransactions.current();
    assertThat(next).isNotSameAs(open);
    assertThat(next.isCommitted()).isFalse();
  }

  @Test
  void aCommitThatFailsEndsItUncommitted() {
    Transaction open = StreamTransactions.current();
    kafka.commitTransactionException = new ProducerFencedException("fenced");

    assertThatThrownBy(producer::commitTransaction).isInstanceOf(ProducerFencedException.class);

    assertThat(open.isCommitted()).isFalse();
    assertThat(open.holds()).as("not even for its own thread").isFalse();
    assertThat(StreamTransactions.current()).isNotSameAs(open);
  }

  @Test
  void anAbortEndsItUncommitted() {
    Transaction open = StreamTransactions.current();

    producer.abortTransaction();

    assertThat(kafka.transactionAborted()).isTrue();
    assertThat(open.holds()).isFalse();
    assertThat(StreamTransactions.current().holds()).isTrue();
  }

  @Test
  void closingTheProducerEndsItUncommitted() {
    Transaction open = StreamTransactions.current();

    producer.close();

    assertThat(open.isCommitted()).isFalse();
    assertThat(open.holds()).isFalse();
  }
}
