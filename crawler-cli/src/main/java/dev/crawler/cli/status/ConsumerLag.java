package dev.crawler.cli.status;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far behind each consumer group is on the crawl's topics: per group and topic, the records
 * committed to the topic that the group has not committed past (what KEDA scales fetchers on).
 */
final class ConsumerLag {

  /**
   * One group's lag on one topic.
   *
   * @param lag records behind, over the topic's partitions
   */
  record Row(String group, String topic, long lag) {}

  private ConsumerLag() {}

  /**
   * The lag of every consumer group that has committed offsets on one of these topics, by group
   * then topic.
   */
  static List<Row> of(Admin admin, Set<String> topics)
      throws ExecutionException, InterruptedException, TimeoutException {
    Collection<GroupListing> groups =
        admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS);
    Map<String, Map<TopicPartition, OffsetAndMetadata>> committedByGroup = new TreeMap<>();
    for (GroupListing group : groups) {
      Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
      admin
          .listConsumerGroupOffsets(group.groupId())
          .partitionsToOffsetAndMetadata()
          .get(10, TimeUnit.SECONDS)
          .forEach(
              (partition, offset) -> {
                if (offset != null && topics.contains(partition.topic())) {
                  committed.put(partition, offset);
                }
              });
      if (!committed.isEmpty()) {
        committedByGroup.put(group.groupId(), committed);
      }
    }
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    committedByGroup
        .values()
        .forEach(
            committed ->
                committed
                    .keySet()
                    .forEach(partition -> request.put(partition, OffsetSpec.latest())));
    Map<TopicPartition, Long> ends = new HashMap<>();
    if (!request.isEmpty()) {
      admin
          .listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
          .all()
          .get(10, TimeUnit.SECONDS)
          .forEach((partition, info) -> ends.put(partition, info.offset()));
    }
    List<Row> rows = new ArrayList<>();
    committedByGroup.forEach(
        (group, committed) -> {
          Map<String, Long> byTopic = new TreeMap<>();
          committed.forEach(
              (partition, offset) ->
                  byTopic.merge(
                      partition.topic(),
                      Math.max(0, ends.getOrDefault(partition, 0L) - offset.offset()),
                      Long::sum));
          byTopic.forEach((topic, lag) -> rows.add(new Row(group, topic, lag)));
        });
    return rows;
  }
}
