package dev.crawler.embedded;

import dev.crawler.schemas.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the catalogue's topics on a cluster when they are missing, and waits until every
 * partition has a leader, so that producers and Kafka Streams start against topics that are really
 * there.
 *
 * <p>Existing topics are kept as they are; an origin-keyed topic whose partition count differs from
 * the others is an error, because co-partitioned topics must agree, and so is a topic with a fixed
 * partition count that has another.
 */
public final class TopicInstaller {

  private static final Logger LOG = LoggerFactory.getLogger(TopicInstaller.class);

  /** How long the wait for the partitions' leaders sleeps between two questions. */
  private static final long LEADERS_POLL_MS = 10;

  private final Admin admin;
  private final Duration timeout;

  public TopicInstaller(Admin admin, Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /**
   * Ensures every topic exists.
   *
   * @param partitions partitions of each topic it creates
   * @param replicationFactor replicas of each topic it creates
   * @throws IllegalStateException when the co-partitioned topics disagree, or the cluster does not
   *     answer within the timeout
   */
  public void install(
      Collection<? extends TopicSpec<?, ?>> topics, int partitions, short replicationFactor) {
    try {
      Set<String> existing =
          admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      List<NewTopic> missing = new ArrayList<>();
      for (TopicSpec<?, ?> topic : topics) {
        if (!existing.contains(topic.name())) {
          missing.add(
              new NewTopic(topic.name(), topic.partitions(partitions), replicationFactor)
                  .configs(topic.topicConfigs()));
        }
      }
      if (!missing.isEmpty()) {
        for (var entry : admin.createTopics(missing).values().entrySet()) {
          try {
            entry.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
          } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
              throw e;
            }
          }
        }
        LOG.info("Created topics {}", missing.stream().map(NewTopic::name).toList());
      }
      Map<String, TopicDescription> descriptions =
          awaitLeaders(topics.stream().map(TopicSpec::name).toList());
      checkCoPartitioning(topics, descriptions);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create the crawler's topics: " + e, e);
    }
  }

  /**
   * Asks the cluster for a group coordinator and waits until it answers. A new cluster creates its
   * offsets topic ({@code __consumer_offsets}) when first asked: asked here, beside the catalogue's
   * topics, instead of when the first service joins its group (which was then told to find the
   * coordinator again, half a second of a crawl's start). The transaction coordinator is left to
   * the first transaction: asked for while its topic is being created, the broker logs a warning
   * for every retry of the question.
   *
   * @throws IllegalStateException when the cluster does not answer within the timeout
   */
  public void awaitGroupCoordinator() {
    try {
      admin
          .describeConsumerGroups(List.of(PROBE_ID))
          .all()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw new IllegalStateException("the group coordinator did not answer: " + e.getCause(), e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking for the group coordinator", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("the group coordinator did not answer in time", e);
    }
  }

  /** A group no one uses: asked about, it only finds the coordinator. */
  private static final String PROBE_ID = "crawler-coordinator-probe";

  private Map<String, TopicDescription> awaitLeaders(List<String> names)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<String, TopicDescription> descriptions;
      try {
        descriptions =
            admin
                .describeTopics(names)
                .allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        // a topic created a moment ago may not be known to the broker's metadata yet
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
            || System.nanoTime() > deadline) {
          throw e;
        }
        descriptions = Map.of();
      }
      boolean allLed =
          descriptions.size() == names.size()
              && descriptions.values().stream()
                  .flatMap(d -> d.partitions().stream())
                  .map(TopicPartitionInfo::leader)
                  .allMatch(l -> l != null && !l.isEmpty());
      if (allLed && areServed(descriptions)) {
        return descriptions;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "topics "
                + names
                + " have partitions without a leader after "
                + timeout.toSeconds()
                + " s");
      }
      // the broker makes a new cluster's ~70 partitions one after another, 2-4 ms each: asked again
      // soon, a crawl starts within a few milliseconds of the last one
      TimeUnit.MILLISECONDS.sleep(LEADERS_POLL_MS);
    }
  }

  /**
   * Whether every partition's leader serves it already. The metadata names a leader a moment before
   * the leader's replica manager takes the partition; a producer that writes in that moment gets
   * NOT_LEADER_OR_FOLLOWER, and an idempotent one can then be left retrying a batch the broker
   * already appended (OutOfOrderSequenceException, for good). Asking each leader for the
   * partition's end offset succeeds only once it serves the partition.
   */
  private boolean areServed(Map<String, TopicDescription> descriptions)
      throws InterruptedException {
    Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
    descriptions
        .values()
        .forEach(
            topic ->
                topic
                    .partitions()
                    .forEach(
                        p ->
                            partitions.put(
                                new TopicPartition(topic.name(), p.partition()),
                                OffsetSpec.latest())));
    try {
      admin.listOffsets(partitions).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  private static void checkCoPartitioning(
      Collection<? extends TopicSpec<?, ?>> topics, Map<String, TopicDescription> descriptions) {
    Map<String, Integer> counts =
        topics.stream()
            .filter(TopicSpec::coPartitionedByOrigin)
            .collect(
                Collectors.toMap(
                    TopicSpec::name, t -> descriptions.get(t.name()).partitions().size()));
    if (counts.values().stream().distinct().count() > 1) {
      throw new IllegalStateException(
          "the origin-keyed topics must have the same number of partitions, but have " + counts);
    }
    for (TopicSpec<?, ?> topic : topics) {
      int actual = descriptions.get(topic.name()).partitions().size();
      if (topic.fixedPartitions() > 0 && actual != topic.fixedPartitions()) {
        throw new IllegalStateException(
            "topic "
                + topic.name()
                + " must have "
                + topic.fixedPartitions()
                + " partition(s), but has "
                + actual);
      }
    }
  }
}
