package dev.crawler.common.recovery;

import dev.crawler.common.recovery.HangingTransactions.CoordinatorView;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the hanging transactions on a service's topics and aborts them, as Kafka's {@code
 * kafka-transactions.sh find-hanging} and {@code abort} do by hand.
 *
 * <p>Each {@link #pass()} asks the partitions' leaders for their high watermark and last stable
 * offset; a partition whose stable offset stayed below the watermark, at the same offset, since the
 * previous pass is held by an open transaction. Only those are looked at further: their open
 * transactions ({@code DescribeProducers}), what the coordinators say of the producers ({@code
 * ListTransactions}, {@code DescribeTransactions}), the decision ({@link HangingTransactions}), the
 * partitions asked once more (the transaction still open from the same offset), then an abort
 * marker written for each ({@code WriteTxnMarkers}). An idle crawl costs two offset requests per
 * pass.
 *
 * <p>Aborting needs the ALTER (or CLUSTER_ACTION) permission on the cluster. Without it, or with
 * aborting switched off, each hanging transaction is logged once as an error with the command that
 * aborts it, and the readers stay held until an operator runs it. Not thread-safe: one thread runs
 * the passes.
 */
public final class TransactionRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(TransactionRecovery.class);

  private final String service;
  private final Admin admin;
  private final Supplier<? extends Collection<String>> topics;
  private final boolean mayAbort;
  private final InstantSource clock;
  private final Duration requestTimeout;
  private Map<TopicPartition, Long> heldBefore = Map.of();
  private final Set<OpenTransaction> reported = new HashSet<>();

  /**
   * @param service the service's name, for its log
   * @param admin the client the requests go through (owned by the caller)
   * @param topics the topics to watch, asked at every pass (a Kafka Streams instance's changelogs
   *     appear once it created them)
   * @param mayAbort whether to abort what it finds, or only report it
   * @param clock the clock that ages transactions
   * @param requestTimeout how long each request may take
   */
  public TransactionRecovery(
      String service,
      Admin admin,
      Supplier<? extends Collection<String>> topics,
      boolean mayAbort,
      InstantSource clock,
      Duration requestTimeout) {
    this.service = service;
    this.admin = admin;
    this.topics = topics;
    this.mayAbort = mayAbort;
    this.clock = clock;
    this.requestTimeout = requestTimeout;
  }

  /**
   * One look at the topics: aborts (or reports) every hanging transaction found.
   *
   * @return the hanging transactions found in this pass, aborted or not
   * @throws InterruptedException when interrupted while waiting for Kafka
   */
  public List<OpenTransaction> pass() throws InterruptedException {
    Map<TopicPartition, Long> held = heldPartitions();
    List<TopicPartition> stillHeld = new ArrayList<>();
    held.forEach(
        (partition, stable) -> {
          if (stable.equals(heldBefore.get(partition))) {
            stillHeld.add(partition);
          }
        });
    heldBefore = held;
    if (stillHeld.isEmpty()) {
      return List.of();
    }
    List<OpenTransaction> open = openTransactions(stillHeld);
    List<OpenTransaction> hanging =
        HangingTransactions.hanging(open, coordinatorViews(open), clock.instant());
    if (hanging.isEmpty()) {
      return List.of();
    }
    // asked again: a marker written between the two questions would make a closed one look hanging
    Set<OpenTransaction> openNow =
        new HashSet<>(
            openTransactions(hanging.stream().map(OpenTransaction::partition).distinct().toList()));
    List<OpenTransaction> confirmed = hanging.stream().filter(openNow::contains).toList();
    for (OpenTransaction transaction : confirmed) {
      end(transaction);
    }
    return confirmed;
  }

  private void end(OpenTransaction transaction) throws InterruptedException {
    if (!mayAbort) {
      report(transaction, "aborting hanging transactions is switched off");
      return;
    }
    try {
      admin
          .abortTransaction(transaction.abortSpec())
          .all()
          .get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      LOG.warn(
          "{}: aborted a hanging transaction on {}: read_committed consumers of the partition were"
              + " held at offset {} since {}",
          service,
          transaction,
          transaction.startOffset(),
          transaction.lastWrite());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ClusterAuthorizationException
          || e.getCause() instanceof TopicAuthorizationException) {
        report(transaction, "not allowed to abort it (needs ALTER on the cluster)");
      } else {
        LOG.warn(
            "{}: cannot abort the hanging transaction on {} now: {}",
            service,
            transaction,
            e.getCause().toString());
      }
    } catch (TimeoutException e) {
      LOG.warn("{}: aborting the hanging transaction on {} timed out", service, transaction);
    }
  }

  private void report(OpenTransaction transaction, String why) {
    if (reported.add(transaction)) {
      LOG.error(
          "{}: a hanging transaction holds {}: every read_committed consumer of the partition stops"
              + " at offset {} until it is aborted; {}. To abort it: {}",
          service,
          transaction,
          transaction.startOffset(),
          why,
          transaction.abortCommand());
    }
  }

  /** The partitions whose last stable offset is below their high watermark, with that offset. */
  private Map<TopicPartition, Long> heldPartitions() throws InterruptedException {
    Collection<String> names = topics.get();
    if (names.isEmpty()) {
      return Map.of();
    }
    Map<String, TopicDescription> descriptions =
        answer(admin.describeTopics(names).allTopicNames(), Map.of());
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    descriptions.forEach(
        (topic, description) ->
            description
                .partitions()
                .forEach(
                    partition ->
                        latest.put(
                            new TopicPartition(topic, partition.partition()),
                            OffsetSpec.latest())));
    if (latest.isEmpty()) {
      return Map.of();
    }
    ListOffsetsResult watermarks =
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED));
    ListOffsetsResult stable =
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
    Map<TopicPartition, Long> held = new HashMap<>();
    for (TopicPartition partition : latest.keySet()) {
      // a partition without a leader now is asked again at the next pass
      ListOffsetsResult.ListOffsetsResultInfo watermark =
          answer(watermarks.partitionResult(partition), null);
      ListOffsetsResult.ListOffsetsResultInfo lastStable =
          answer(stable.partitionResult(partition), null);
      if (watermark != null && lastStable != null && lastStable.offset() < watermark.offset()) {
        held.put(partition, lastStable.offset());
      }
    }
    return held;
  }

  /** The transactions the partitions hold open now. */
  private List<OpenTransaction> openTransactions(List<TopicPartition> partitions)
      throws InterruptedException {
    var result = admin.describeProducers(partitions);
    List<OpenTransaction> open = new ArrayList<>();
    for (TopicPartition partition : partitions) {
      PartitionProducerState state = answer(result.partitionResult(partition), null);
      if (state == null) {
        continue;
      }
      for (ProducerState producer : state.activeProducers()) {
        if (producer.currentTransactionStartOffset().isPresent()) {
          open.add(
              new OpenTransaction(
                  partition,
                  producer.producerId(),
                  (short) producer.producerEpoch(),
                  producer.coordinatorEpoch().orElse(0),
                  producer.currentTransactionStartOffset().getAsLong(),
                  Instant.ofEpochMilli(producer.lastTimestamp())));
        }
      }
    }
    return open;
  }

  /** What the coordinators say of the producers of these transactions, by producer id. */
  private Map<Long, CoordinatorView> coordinatorViews(List<OpenTransaction> open)
      throws InterruptedException {
    Set<Long> producers = new HashSet<>();
    open.forEach(transaction -> producers.add(transaction.producerId()));
    if (producers.isEmpty()) {
      return Map.of();
    }
    Collection<TransactionListing> listings =
        answer(
            admin
                .listTransactions(new ListTransactionsOptions().filterProducerIds(producers))
                .all(),
            null);
    if (listings == null) {
      // without the coordinators' word nothing is judged: every producer would look unknown
      throw new IllegalStateException("the transaction coordinators did not answer");
    }
    Map<String, Long> producerOf = new HashMap<>();
    for (TransactionListing listing : listings) {
      if (producers.contains(listing.producerId())) {
        producerOf.put(listing.transactionalId(), listing.producerId());
      }
    }
    Map<Long, CoordinatorView> views = new HashMap<>();
    if (producerOf.isEmpty()) {
      return views;
    }
    var descriptions = admin.describeTransactions(producerOf.keySet());
    for (Map.Entry<String, Long> entry : producerOf.entrySet()) {
      TransactionDescription description;
      try {
        description =
            descriptions
                .description(entry.getKey())
                .get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof TransactionalIdNotFoundException) {
          continue; // expired since it was listed: a producer no coordinator knows
        }
        throw new IllegalStateException(
            "the coordinator of " + entry.getKey() + " did not describe its transaction", e);
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            "the coordinator of " + entry.getKey() + " did not answer in time", e);
      }
      views.put(
          entry.getValue(),
          new CoordinatorView(
              Duration.ofMillis(description.transactionTimeoutMs()),
              description.topicPartitions()));
    }
    return views;
  }

  /** The future's value, or {@code otherwise} when it failed or took longer than the timeout. */
  private <T> T answer(KafkaFuture<T> future, T otherwise) throws InterruptedException {
    try {
      return future.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TransactionalIdAuthorizationException
          || e.getCause() instanceof TopicAuthorizationException) {
        LOG.debug("{}: not allowed: {}", service, e.getCause().toString());
      }
      return otherwise;
    } catch (TimeoutException e) {
      return otherwise;
    }
  }
}
