package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.archive.ArchiveApp;
import dev.crawler.archive.domain.WarcRecords;
import dev.crawler.cli.crawl.EditableSite;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.DocumentEvent;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * The archive writer killed with SIGKILL mid-file, as a pod dies, and started again on its
 * directory: every exchange the fetcher recorded is in the archive exactly once — each request
 * record the id its Kafka coordinates give, none missing, none twice — and no file is left half
 * written.
 */
class ArchiveChaosIT {

  private static final int ORIGINS = 2;
  private static final int PAGES_PER_ORIGIN = 120;

  @TempDir Path dir;

  @RegisterExtension final EditableSite site = new EditableSite(ORIGINS);

  @RegisterExtension final ServiceProcesses processes = new ServiceProcesses(ArchiveChaosIT.class);

  @Test
  void aWriterKilledMidFileLosesNothingAndWritesNothingTwice() throws Exception {
    Set<String> pages = site.addLinkedPages(PAGES_PER_ORIGIN, "");
    Path archive = dir.resolve("warc");
    try (ServiceProcesses.NodeCluster nodes =
        ServiceProcesses.NodeCluster.start(dir.resolve("cluster"), 1)) {
      ServiceProcesses.Endpoints cluster = nodes.endpoints();
      Topics topics = cluster.topics();
      Map<String, String> common = ServiceProcesses.clientVariables(cluster);
      Map<String, String> recording = new HashMap<>(common);
      recording.put("CRAWLER_FETCHER_ARCHIVE_EXCHANGES", "true");
      Map<String, ServiceProcesses.Service> services = new LinkedHashMap<>();
      for (String name : List.of("frontier", "parser", "committer")) {
        services.put(
            name, processes.startPod(name, name + "-0", dir, 50, common, Map.of(), Map.of()));
      }
      services.put(
          "fetcher",
          processes.startPod("fetcher", "fetcher", dir, 50, recording, Map.of(), Map.of()));
      ServiceProcesses.Service writer = startWriter(common, archive);
      for (ServiceProcesses.Service service : services.values()) {
        processes.awaitReady(service);
      }
      processes.awaitReady(writer);
      ServiceProcesses.seed(cluster, site.urls());
      // the writer closes a file every second: killed once some are closed and one is open
      await("files closed, one open")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> count(archive, ".warc.gz") >= 2 && count(archive, ".open") >= 1);
      writer.process().destroyForcibly(); // SIGKILL
      writer.process().waitFor(30, TimeUnit.SECONDS);
      int openAtTheKill = count(archive, ".open");
      ServiceProcesses.Service restarted = startWriter(common, archive);
      processes.awaitReady(restarted);

      Map<String, DocumentEvent> documents = new HashMap<>();
      await("every page published")
          .atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                documents.putAll(ServiceProcesses.readDocuments(cluster, topics));
                return documents.keySet().containsAll(pages);
              });
      Set<String> expected = expectedRequestIds(cluster, topics);
      // the writer closes its file on SIGTERM, after reading what it has not read
      await("the writer has archived every exchange")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> requestIds(archive, false).containsAll(expected));
      restarted.process().destroy(); // SIGTERM: the open file is closed and committed
      assertThat(restarted.process().waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(count(archive, ".open")).as("no file left half written").isZero();
      List<String> ids = new ArrayList<>(requestIdList(archive));
      System.out.printf(
          Locale.ROOT,
          "archive: %d files, %d request records, %d exchanges recorded in Kafka; %d file(s) open at the kill%n",
          count(archive, ".warc.gz"),
          ids.size(),
          expected.size(),
          openAtTheKill);
      assertThat(new HashSet<>(ids)).as("every exchange archived").isEqualTo(expected);
      assertThat(ids).as("none archived twice").doesNotHaveDuplicates();
    }
  }

  private ServiceProcesses.Service startWriter(Map<String, String> common, Path archive)
      throws IOException {
    Map<String, String> variables = new HashMap<>(common);
    variables.put("CRAWLER_ARCHIVE_DIRECTORY", archive.toString());
    variables.put("CRAWLER_ARCHIVE_FILE_MAX_AGE_MS", "1000");
    variables.put("CRAWLER_ARCHIVE_INSTANCE_ID", "archive-0");
    variables.put("CRAWLER_ARCHIVE_GROUP_ID", "crawler-archive");
    return processes.start("archive", ArchiveApp.class, variables);
  }

  /**
   * The ids the request records of every recorded exchange must have: derived, as the writer
   * derives them, from the coordinates of the Kafka records that carry them.
   */
  private static Set<String> expectedRequestIds(ServiceProcesses.Endpoints cluster, Topics topics)
      throws IOException {
    Set<String> ids = new HashSet<>();
    Map<String, Object> kafka =
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
    TopicReader.read(
        ClusterOptions.readerProperties(kafka),
        topics.fetchResults(),
        ClusterOptions.READ_BOUND,
        record -> {
          addRequestIds(
              ids,
              record.topic(),
              record.partition(),
              record.offset(),
              record.value().getExchanges().size());
          return true;
        },
        problem -> {});
    TopicReader.read(
        ClusterOptions.readerProperties(kafka),
        topics.exchanges(),
        ClusterOptions.READ_BOUND,
        record -> {
          addRequestIds(
              ids,
              record.topic(),
              record.partition(),
              record.offset(),
              record.value().getExchanges().size());
          return true;
        },
        problem -> {});
    return ids;
  }

  private static void addRequestIds(
      Set<String> ids, String topic, int partition, long offset, int exchanges) {
    WarcRecords.Coordinates from = new WarcRecords.Coordinates(topic, partition, offset);
    for (int i = 0; i < exchanges; i++) {
      ids.add("urn:uuid:" + from.recordId(2 * i));
    }
  }

  private static Set<String> requestIds(Path archive, boolean openToo) throws IOException {
    return new HashSet<>(requestIdList(archive));
  }

  /** The ids of the request records of every closed file. */
  private static List<String> requestIdList(Path archive) throws IOException {
    List<String> ids = new ArrayList<>();
    if (!Files.isDirectory(archive)) {
      return ids;
    }
    List<Path> files;
    try (Stream<Path> listed = Files.list(archive)) {
      files = listed.filter(f -> f.toString().endsWith(".warc.gz")).sorted().toList();
    }
    for (Path file : files) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          if (record.type().equals("request")) {
            ids.add(record.id().toString());
          }
        }
      }
    }
    return ids;
  }

  private static int count(Path archive, String suffix) throws IOException {
    if (!Files.isDirectory(archive)) {
      return 0;
    }
    try (Stream<Path> listed = Files.list(archive)) {
      return (int) listed.filter(f -> f.toString().endsWith(suffix)).count();
    }
  }
}
