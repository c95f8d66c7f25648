package dev.crawler.cli.crawl;

import dev.crawler.schemas.TopicSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a consumer group has committed every committed record of some topics: its input lag is
 * zero. The crawl is idle when the frontier has nothing in flight or due and has read every
 * discovered URL and every outcome, and the committer every parsed page.
 */
final class GroupLag {

  private final Admin admin;
  private final String groupId;
  private final List<String> topics;

  GroupLag(Admin admin, String groupId, List<? extends TopicSpec<?, ?>> topics) {
    this.admin = admin;
    this.groupId = groupId;
    this.topics = topics.stream().map(TopicSpec::name).toList();
  }

  /**
   * Whether the group's committed offsets have reached the end (last stable offset) of every
   * partition.
   */
  boolean isCaughtUp() {
    try {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(groupId)
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      Map<TopicPartition, Long> ends = endOffsets(admin, topics);
      return ends.entrySet().stream()
          .allMatch(
              end -> {
                OffsetAndMetadata offset = committed.get(end.getKey());
                return end.getValue() == 0 || (offset != null && offset.offset() >= end.getValue());
              });
    } catch (ExecutionException | TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The end offsets, as read-committed consumers see them, of every partition of the topics. */
  static Map<TopicPartition, Long> endOffsets(Admin admin, List<String> topics)
      throws ExecutionException, InterruptedException, TimeoutException {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    admin
        .describeTopics(topics)
        .allTopicNames()
        .get(10, TimeUnit.SECONDS)
        .forEach(
            (name, description) ->
                description
                    .partitions()
                    .forEach(
                        p ->
                            request.put(
                                new TopicPartition(name, p.partition()), OffsetSpec.latest())));
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin
        .listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
        .all()
        .get(10, TimeUnit.SECONDS)
        .forEach((partition, info) -> ends.put(partition, info.offset()));
    return ends;
  }
}
