package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.cli.crawl.EditableSite;
import dev.crawler.embedded.KafkaNodeCluster;
import dev.crawler.events.DocumentEvent;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own events on a cluster of three brokers (each its own process; replication factor 3,
 * min.insync.replicas 2 for every topic), with several instances of every service, as a platform
 * team runs the crawler: two frontiers and two committers with standby replicas, two parsers, three
 * fetchers. Mid-crawl, in turn: the leader of most crawl.fetch-requests partitions is killed
 * (SIGKILL) and restarted, then the active controller, then two brokers are taken away at once for
 * 20 s (below the in-sync minimum: writes wait) and brought back, then one more instance of each
 * service starts and one of each is killed. Each standstill (the longest any origin waited for its
 * next request) is measured and printed; after a single broker's kill it must end within 30 s.
 * Every page must be published, none lost, politeness exact, and no origin fetched by two fetchers
 * at once.
 */
class ClusterChaosIT {

  private static final int ORIGINS = 6;
  private static final int PAGES_PER_ORIGIN = 1_000;
  private static final long DELAY_MILLIS = 150;
  private static final Duration SINGLE_BROKER_STANDSTILL = Duration.ofSeconds(30);
  private static final Duration TWO_BROKERS_AWAY = Duration.ofSeconds(20);

  /** From the kill of one instance of each service to pages on every origin again. */
  private static final Duration INSTANCES_STANDSTILL = Duration.ofSeconds(45);

  @TempDir Path dir;

  @RegisterExtension final EditableSite site = new EditableSite(ORIGINS);

  @RegisterExtension final ServiceProcesses processes = new ServiceProcesses(ClusterChaosIT.class);

  @Test
  void threeBrokersSeveralInstancesOfEachServiceAndNoPageLost() throws Exception {
    Set<String> pages = site.addLinkedPages(PAGES_PER_ORIGIN, "");
    try (ServiceProcesses.NodeCluster nodes =
        ServiceProcesses.NodeCluster.start(dir.resolve("cluster"), 3)) {
      KafkaNodeCluster kafka = nodes.kafka();
      ServiceProcesses.Endpoints cluster = nodes.endpoints();
      Topics topics = cluster.topics();
      Map<String, String> common = ServiceProcesses.clientVariables(cluster);
      Map<String, ServiceProcesses.Service> services = new LinkedHashMap<>();
      for (String name :
          List.of(
              "frontier-1",
              "frontier-2",
              "parser-1",
              "parser-2",
              "committer-1",
              "committer-2",
              "fetcher-1",
              "fetcher-2",
              "fetcher-3")) {
        services.put(name, start(name, common));
      }
      for (ServiceProcesses.Service service : services.values()) {
        processes.awaitReady(service);
      }
      ServiceProcesses.seed(cluster, site.urls());
      await("pages flow on every origin")
          .atMost(Duration.ofSeconds(120))
          .until(
              () -> site.isEveryOriginServedSince(System.nanoTime() - TimeUnit.SECONDS.toNanos(2)));
      List<String> figures = new ArrayList<>();

      int leader = kafka.leaderOfMost(topics.fetchRequests().name());
      long killedAt = System.nanoTime();
      kafka.kill(leader);
      Duration standstill = awaitFlowing(killedAt);
      figures.add(
          report("broker " + leader + " (leader of most fetch requests) killed", standstill));
      assertThat(standstill).isLessThanOrEqualTo(SINGLE_BROKER_STANDSTILL);
      kafka.start(leader);
      kafka.awaitNodes(Set.of(leader), Duration.ofSeconds(120));
      awaitFlowing(System.nanoTime());

      int controller = kafka.activeController();
      killedAt = System.nanoTime();
      kafka.kill(controller);
      standstill = awaitFlowing(killedAt);
      figures.add(report("broker " + controller + " (active controller) killed", standstill));
      assertThat(standstill).isLessThanOrEqualTo(SINGLE_BROKER_STANDSTILL);
      kafka.start(controller);
      kafka.awaitNodes(Set.of(controller), Duration.ofSeconds(120));
      awaitFlowing(System.nanoTime());

      List<Integer> away = kafka.nodeIds().stream().filter(id -> id != controller).toList();
      killedAt = System.nanoTime();
      away.forEach(kafka::kill);
      await("two brokers away")
          .pollDelay(TWO_BROKERS_AWAY)
          .atMost(TWO_BROKERS_AWAY.plusSeconds(5))
          .until(() -> true);
      away.forEach(kafka::start);
      kafka.awaitNodes(Set.copyOf(away), Duration.ofSeconds(120));
      long backAt = System.nanoTime();
      standstill = awaitFlowing(killedAt);
      figures.add(
          report("brokers " + away + " away for " + TWO_BROKERS_AWAY.toSeconds() + " s", standstill)
              + String.format(
                  Locale.ROOT,
                  "; pages on every origin %.1f s after they were back",
                  (System.nanoTime() - backAt) / 1e9));
      assertThat(standstill)
          .isLessThanOrEqualTo(TWO_BROKERS_AWAY.plus(SINGLE_BROKER_STANDSTILL).plusSeconds(30));

      for (String name : List.of("frontier-3", "parser-3", "committer-3", "fetcher-4")) {
        services.put(name, start(name, common));
      }
      for (String name : List.of("frontier-3", "parser-3", "committer-3", "fetcher-4")) {
        processes.awaitReady(services.get(name));
      }
      awaitFlowing(System.nanoTime());
      killedAt = System.nanoTime();
      Instant instancesKilledAt = Instant.now();
      for (String name : List.of("frontier-1", "parser-1", "committer-1", "fetcher-1")) {
        ServiceProcesses.Service killed = services.remove(name);
        killed.process().destroyForcibly();
        killed.process().waitFor(30, TimeUnit.SECONDS);
      }
      standstill = awaitFlowing(killedAt);
      figures.add(report("frontier-1, parser-1, committer-1 and fetcher-1 killed", standstill));
      figures.addAll(
          restorations(
              List.of(services.get("frontier-2"), services.get("frontier-3")), instancesKilledAt));
      assertThat(standstill).isLessThanOrEqualTo(INSTANCES_STANDSTILL);

      Map<String, DocumentEvent> documents = new HashMap<>();
      await("every page published")
          .atMost(Duration.ofSeconds(600))
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () -> {
                documents.putAll(ServiceProcesses.readDocuments(cluster, topics));
                return documents.keySet().containsAll(pages);
              });
      figures.forEach(System.out::println);
      assertThat(documents.keySet()).containsExactlyInAnyOrderElementsOf(pages);
      assertPoliteAndOneFetcherAtATime();
      assertReplicated(kafka);
      long fetchedAgain = site.requests().values().stream().filter(count -> count > 1).count();
      System.out.println(
          "pages fetched more than once (requests of a killed fetcher whose results were not written): "
              + fetchedAgain);
    }
  }

  /**
   * Waits until every origin has been served since a second after {@code since} and in the last two
   * seconds; returns the standstill: the longest any origin waited between two requests (or from
   * {@code since} to its first) until then.
   */
  private Duration awaitFlowing(long since) {
    long[] flowingAt = new long[1];
    await("pages flow again on every origin")
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              long now = System.nanoTime();
              long recent =
                  Math.max(since + TimeUnit.SECONDS.toNanos(1), now - TimeUnit.SECONDS.toNanos(2));
              flowingAt[0] = now;
              return site.isEveryOriginServedSince(recent);
            });
    Map<String, Long> last = new HashMap<>();
    site.urls().forEach(origin -> last.put(origin, since));
    long longest = 0;
    for (EditableSite.Served page : site.served()) {
      if (page.nanoTime() > since && page.nanoTime() <= flowingAt[0]) {
        longest = Math.max(longest, page.nanoTime() - last.get(page.origin()));
        last.put(page.origin(), page.nanoTime());
      }
    }
    return Duration.ofNanos(longest);
  }

  private static String report(String event, Duration standstill) {
    String line =
        String.format(
            Locale.ROOT,
            "%s: longest standstill of an origin %.1f s",
            event,
            standstill.toMillis() / 1e3);
    System.out.println(line);
    return line;
  }

  /**
   * What the frontiers that took the killed one's tasks restored since it was killed, per task
   * (changelog partition): records and the longest store restoration, from their logs.
   */
  private static List<String> restorations(List<ServiceProcesses.Service> frontiers, Instant since)
      throws IOException {
    Pattern restored =
        Pattern.compile(
            "^(\\S+) .*restored store \\S+ from \\S+-changelog-(\\d+): (\\d+) records in (\\d+) ms");
    List<String> lines = new ArrayList<>();
    for (ServiceProcesses.Service frontier : frontiers) {
      Map<Integer, long[]> tasks = new TreeMap<>(); // partition -> records, longest ms
      for (String line : Files.readAllLines(frontier.log())) {
        Matcher matcher = restored.matcher(line);
        if (matcher.find() && !Instant.parse(matcher.group(1)).isBefore(since)) {
          long[] task = tasks.computeIfAbsent(Integer.parseInt(matcher.group(2)), p -> new long[2]);
          task[0] += Long.parseLong(matcher.group(3));
          task[1] = Math.max(task[1], Long.parseLong(matcher.group(4)));
        }
      }
      tasks.forEach(
          (partition, task) ->
              lines.add(
                  String.format(
                      Locale.ROOT,
                      "frontier task of partition %d moved to %s (standby replicas 1): %d records"
                          + " restored, in %d ms",
                      partition,
                      frontier.name(),
                      task[0],
                      task[1])));
    }
    lines.forEach(System.out::println);
    return lines;
  }

  /**
   * No two requests to one origin closer than the delay, whoever made them; and an origin changes
   * fetcher only when its partition moves (a handful of times), never back and forth as two
   * fetchers serving it at once would.
   */
  private void assertPoliteAndOneFetcherAtATime() {
    Map<String, EditableSite.Served> last = new HashMap<>();
    Map<String, Integer> switches = new TreeMap<>();
    long closest = Long.MAX_VALUE;
    for (EditableSite.Served page : site.served()) {
      EditableSite.Served previous = last.put(page.origin(), page);
      if (previous != null) {
        closest = Math.min(closest, page.nanoTime() - previous.nanoTime());
        if (!previous.agent().equals(page.agent())) {
          switches.merge(page.origin(), 1, Integer::sum);
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "closest two requests to one origin: %.0f ms (delay %d ms); fetcher changes per origin: %s%n",
        closest / 1e6,
        DELAY_MILLIS,
        switches);
    assertThat(TimeUnit.NANOSECONDS.toMillis(closest))
        .as("politeness")
        .isGreaterThanOrEqualTo(DELAY_MILLIS);
    assertThat(switches.values())
        .as("an origin changes fetcher only when its partition moves")
        .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(8));
  }

  /** Every topic the crawler and Kafka Streams created has three replicas, two in sync to write. */
  private static void assertReplicated(KafkaNodeCluster kafka) throws Exception {
    Set<String> names =
        kafka
            .admin()
            .listTopics(new ListTopicsOptions().listInternal(true))
            .names()
            .get(30, TimeUnit.SECONDS);
    Map<String, TopicDescription> descriptions =
        kafka.admin().describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
    assertThat(descriptions.keySet())
        .anyMatch(name -> name.endsWith("-changelog"))
        .anyMatch(name -> name.startsWith("crawl."));
    descriptions.forEach(
        (name, description) ->
            assertThat(description.partitions())
                .as(name)
                .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(3)));
    Map<ConfigResource, Config> configs =
        kafka
            .admin()
            .describeConfigs(
                names.stream()
                    .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
                    .toList())
            .all()
            .get(30, TimeUnit.SECONDS);
    configs.forEach(
        (topic, config) ->
            assertThat(config.get("min.insync.replicas").value()).as(topic.name()).isEqualTo("2"));
    assertThat(names).contains("__transaction_state", "__consumer_offsets");
  }

  /**
   * A service process named like its pod; the stateful services keep a standby replica of every
   * task, and each fetcher says its name in its User-Agent.
   */
  private ServiceProcesses.Service start(String name, Map<String, String> common)
      throws IOException {
    return processes.startPod(
        name,
        name,
        dir,
        DELAY_MILLIS,
        common,
        Map.of("CRAWLER_STANDBY_REPLICAS", "1"),
        Map.of("CRAWLER_FETCHER_USER_AGENT", "crawler-it/1.0 (" + name + ")"));
  }
}
