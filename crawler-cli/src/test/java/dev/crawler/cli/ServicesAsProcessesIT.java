package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.crawl.EditableSite;
import dev.crawler.committer.CommitterApp;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.fetcher.FetcherApp;
import dev.crawler.frontier.FrontierApp;
import dev.crawler.parser.ParserApp;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four services as pods run them: each its own JVM ({@code java -cp crawler-cli.jar …App}),
 * configured only by {@code CRAWLER_*} variables, against the embedded broker and registry; two
 * fetchers. The crawl is seeded with {@code crawler seed}, one fetcher gets SIGTERM mid-crawl, and
 * the crawl still publishes every page exactly once; the management endpoints answer on every
 * process.
 */
class ServicesAsProcessesIT {

  private static final int ORIGINS = 3;
  private static final int PAGES_PER_ORIGIN = 40;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /**
   * Each origin: a home page linking to its pages, each page linking home; titles name the origin.
   */
  @RegisterExtension final EditableSite site = new EditableSite(ORIGINS);

  @RegisterExtension
  final ServiceProcesses processes = new ServiceProcesses(ServicesAsProcessesIT.class);

  @Test
  void crawlsThroughSeparateProcessesAndLosesNoUrlWhenAFetcherIsStopped() throws Exception {
    Set<String> pages = site.addLinkedPages(PAGES_PER_ORIGIN, "<a href=\"/\">home</a>");
    try (EmbeddedCluster cluster = ServiceProcesses.cluster(dir.resolve("cluster"))) {
      Topics topics = Topics.create(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
      Map<String, String> common = ServiceProcesses.clientVariables(cluster);
      ServiceProcesses.Service frontier =
          processes.start(
              "frontier",
              FrontierApp.class,
              common,
              Map.of(
                  "CRAWLER_STATE_DIR",
                  dir.resolve("frontier").toString(),
                  "CRAWLER_FRONTIER_DELAY_MS",
                  "150"));
      ServiceProcesses.Service parser =
          processes.start(
              "parser",
              ParserApp.class,
              common,
              Map.of("CRAWLER_STATE_DIR", dir.resolve("parser").toString()));
      ServiceProcesses.Service committer =
          processes.start(
              "committer",
              CommitterApp.class,
              common,
              Map.of("CRAWLER_STATE_DIR", dir.resolve("committer").toString()));
      ServiceProcesses.Service stopped =
          processes.start(
              "fetcher-1",
              FetcherApp.class,
              common,
              Map.of("CRAWLER_FETCHER_INSTANCE_ID", "fetcher-1"));
      ServiceProcesses.Service fetcher =
          processes.start(
              "fetcher-2",
              FetcherApp.class,
              common,
              Map.of("CRAWLER_FETCHER_INSTANCE_ID", "fetcher-2", "CRAWLER_LOG_FORMAT", "json"));
      List<ServiceProcesses.Service> all = List.of(frontier, parser, committer, stopped, fetcher);
      for (ServiceProcesses.Service service : all) {
        await(service.name() + " ready")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptionsInstanceOf(IOException.class)
            .until(() -> processes.get(service, "/health/ready").statusCode() == 200);
        assertThat(processes.get(service, "/health/live").statusCode()).isEqualTo(200);
      }
      JsonNode ready = JSON.readTree(processes.get(frontier, "/health/ready").body());
      assertThat(ready.path("checks").path("streams").asText()).isEqualTo("UP");
      assertThat(ready.path("checks").path("kafka").asText()).isEqualTo("UP");
      assertThat(ready.path("checks").path("schema-registry").asText()).isEqualTo("UP");

      ServiceProcesses.seed(cluster, site.urls());

      // mid-crawl: a third of the pages fetched
      await("a third of the pages fetched")
          .atMost(Duration.ofSeconds(120))
          .until(() -> pagesFetched() >= pages.size() / 3);
      assertThat(pagesFetched()).as("stopped before the crawl is over").isLessThan(pages.size());
      stopped.process().destroy(); // SIGTERM, as the kubelet sends it
      assertThat(stopped.process().waitFor(60, TimeUnit.SECONDS))
          .as("the fetcher stops within its grace period")
          .isTrue();
      assertThat(stopped.process().exitValue()).as("SIGTERM").isEqualTo(143);
      assertThat(Files.readString(stopped.log())).contains("fetcher stopped");

      Map<String, DocumentEvent> documents = new HashMap<>();
      try {
        await("every page published")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> {
                  documents.putAll(ServiceProcesses.readDocuments(cluster, topics));
                  return documents.keySet().containsAll(pages);
                });
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        Set<String> missing = new TreeSet<>(pages);
        missing.removeAll(documents.keySet());
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        var commandLine = CrawlerCli.commandLine();
        commandLine.setOut(new PrintWriter(report, true, StandardCharsets.UTF_8));
        commandLine.execute(
            "status",
            "--origins",
            "10",
            "--bootstrap-servers",
            cluster.bootstrapServers(),
            "--schema-registry",
            cluster.schemaRegistryUrl());
        throw new AssertionError(
            "not published: "
                + missing
                + "\nrequests: "
                + site.requests()
                + "\n"
                + report.toString(StandardCharsets.UTF_8),
            e);
      }
      assertThat(documents.values()).allMatch(event -> event.getType() == DocumentEventType.UPSERT);
      assertThat(documents.keySet()).containsExactlyInAnyOrderElementsOf(pages);
      Map<String, Integer> fetchedTwice = new LinkedHashMap<>(site.requests());
      fetchedTwice.values().removeIf(count -> count == 1);
      assertThat(fetchedTwice)
          .as("no page fetched twice: the stopped fetcher finished or handed back its requests")
          .isEmpty();

      // status: the stats topic and the consumer groups
      ByteArrayOutputStream status = new ByteArrayOutputStream();
      await("status shows the crawl done")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                status.reset();
                var commandLine = CrawlerCli.commandLine();
                commandLine.setOut(new PrintWriter(status, true, StandardCharsets.UTF_8));
                commandLine.execute(
                    "status",
                    "--json",
                    "--origins",
                    "10",
                    "--bootstrap-servers",
                    cluster.bootstrapServers(),
                    "--schema-registry",
                    cluster.schemaRegistryUrl());
                JsonNode total =
                    JSON.readTree(status.toString(StandardCharsets.UTF_8)).path("total");
                return total.path("done").path("COMMITTED").asLong() == pages.size()
                    && total.path("queued").asLong() == 0
                    && total.path("inFlight").asLong() == 0;
              });
      JsonNode report = JSON.readTree(status.toString(StandardCharsets.UTF_8));
      assertThat(report.path("sites")).hasSize(1); // every origin is on 127.0.0.1
      assertThat(report.path("origins")).hasSize(ORIGINS);
      assertThat(report.path("lag").findValuesAsText("group"))
          .contains("crawler-fetcher", "crawler-parser", "crawler-committer");
      // idle: every group's committed offsets reach the
      // end of its topics, transaction markers included
      await("every group's lag is 0 on the idle crawl")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(
              () -> {
                status.reset();
                var commandLine = CrawlerCli.commandLine();
                commandLine.setOut(new PrintWriter(status, true, StandardCharsets.UTF_8));
                commandLine.execute(
                    "status",
                    "--json",
                    "--bootstrap-servers",
                    cluster.bootstrapServers(),
                    "--schema-registry",
                    cluster.schemaRegistryUrl());
                JsonNode lag = JSON.readTree(status.toString(StandardCharsets.UTF_8)).path("lag");
                List<String> behind = new ArrayList<>();
                lag.forEach(
                    row -> {
                      if (row.path("lag").asLong() != 0) {
                        behind.add(
                            row.path("group").asText()
                                + " "
                                + row.path("topic").asText()
                                + " "
                                + row.path("lag").asLong());
                      }
                    });
                assertThat(behind).isEmpty();
              });

      // metrics: every process serves its own, in the Prometheus text format
      String frontierMetrics = processes.get(frontier, "/metrics").body();
      assertThat(frontierMetrics)
          .contains(
              "crawler_frontier_queued{",
              "crawler_frontier_origin_queued{",
              "crawler_frontier_origins_paused{",
              "jvm_memory_used_bytes{",
              "kafka_consumer_fetch_manager_records_lag_max");
      assertThat(processes.get(fetcher, "/metrics").body())
          .contains(
              "crawler_fetch_duration_seconds_bucket{",
              "crawler_fetch_size_bytes_bucket{",
              "crawler_politeness_wait_seconds_count{",
              "crawler_robots_fetches_total{",
              "crawler_fetcher_in_flight{",
              "kafka_consumer_fetch_manager_records_lag_max{");
      assertThat(processes.get(committer, "/metrics").body())
          .contains("crawler_documents_total{", "type=\"UPSERT\"", "crawler_outcomes_total{");
      assertThat(processes.get(parser, "/metrics").body())
          .contains("crawler_parse_duration_seconds_bucket{", "service=\"parser\"");

      // the JSON log: one object per line
      List<String> lines =
          Files.readAllLines(fetcher.log()).stream().filter(line -> line.startsWith("{")).toList();
      assertThat(lines).isNotEmpty();
      for (String line : lines) {
        JsonNode entry = JSON.readTree(line);
        assertThat(entry.has("level") && entry.has("formattedMessage")).as(line).isTrue();
      }

      // a fetcher restarted after the idle crawl fetches
      // nothing: every request it could read is committed
      fetcher.process().destroy();
      assertThat(fetcher.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      int servedBefore = pagesFetched();
      ServiceProcesses.Service restarted =
          processes.start(
              "fetcher-3",
              FetcherApp.class,
              common,
              Map.of("CRAWLER_FETCHER_INSTANCE_ID", "fetcher-3"));
      processes.awaitReady(restarted);
      await("the restarted fetcher owns every partition")
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(restarted.log()).contains("assigned ["));
      // a request it wrongly read again would be fetched within a few delays
      await("no page fetched by a fetcher started on the idle crawl")
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .until(() -> pagesFetched() == servedBefore);

      // SIGTERM turns a service not ready at once, then it stops
      frontier.process().destroy();
      assertThat(frontier.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.readString(frontier.log())).contains("frontier stopped");
    }
  }

  /**
   * Page requests served (robots.txt and sitemap.xml are not pages of the site: 404, not counted).
   */
  private int pagesFetched() {
    return site.requests().values().stream().mapToInt(Integer::intValue).sum();
  }
}
