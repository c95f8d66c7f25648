package dev.crawler.fetcher.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ResultPartitionsTest {

  private static MockProducer<byte[], byte[]> producerKnowing(String topic, int partitions) {
    Node node = new Node(0, "127.0.0.1", 9092);
    List<PartitionInfo> infos =
        IntStream.range(0, partitions)
            .mapToObj(p -> new PartitionInfo(topic, p, node, new Node[] {node}, new Node[] {node}))
            .toList();
    Cluster cluster = new Cluster("c", List.of(node), infos, Set.of(), Set.of());
    return new MockProducer<>(
        cluster, true, null, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Test
  void spreadsTheResultsOfOneOriginOverEveryPartition() {
    ResultPartitions partitions =
        new ResultPartitions(producerKnowing("crawl.fetch-results", 4), "crawl.fetch-results");

    Set<Integer> used = new HashSet<>();
    for (int page = 0; page < 100; page++) {
      used.add(partitions.of("http://127.0.0.1:8080/api/page-" + page + ".html"));
    }

    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void sendsEveryResultOfOneUrlToTheSamePartition() {
    ResultPartitions partitions =
        new ResultPartitions(producerKnowing("crawl.fetch-results", 4), "crawl.fetch-results");

    Integer first = partitions.of("http://127.0.0.1:8080/a.html");

    assertThat(partitions.of("http://127.0.0.1:8080/a.html")).isEqualTo(first);
    assertThat(first).isEqualTo(ResultPartitions.partitionOf("http://127.0.0.1:8080/a.html", 4));
  }

  @Test
  void leavesTheRecordToTheProducerWhileThePartitionsAreUnknown() {
    ResultPartitions partitions =
        new ResultPartitions(producerKnowing("another-topic", 4), "crawl.fetch-results");

    assertThat(partitions.of("http://127.0.0.1:8080/a.html")).isNull();
  }
}
