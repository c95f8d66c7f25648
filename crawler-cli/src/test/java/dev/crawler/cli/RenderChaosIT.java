package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.cli.crawl.EditableSite;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.render.RenderApp;
import dev.crawler.render.TestBrowser;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The render service killed with SIGKILL mid-crawl, as a pod dies, and started again: the browser
 * it ran dies with it (no process of it left), the profile it leaves is deleted by the next start,
 * and every page, each built by a script only a browser runs, is published once, rendered. The
 * pages rendered when the kill came and not yet written are rendered again by the new instance;
 * none is lost, none published twice.
 */
class RenderChaosIT {

  private static final int ORIGINS = 2;
  private static final int PAGES_PER_ORIGIN = 40;

  /** What a page's script adds to it: text no HTTP fetch sees. */
  private static final String SCRIPT =
      "<script>var p = document.createElement('p');"
          + " p.textContent = 'Built by script on ' + location.pathname + '.';"
          + " document.body.appendChild(p);</script>";

  @TempDir Path dir;

  @RegisterExtension final EditableSite site = new EditableSite(ORIGINS);

  @RegisterExtension final ServiceProcesses processes = new ServiceProcesses(RenderChaosIT.class);

  @Test
  void aRenderServiceKilledMidCrawlLeavesNoBrowserAndLosesNoPage() throws Exception {
    TestBrowser.require();
    Set<String> pages = site.addLinkedPages(PAGES_PER_ORIGIN, SCRIPT);
    try (ServiceProcesses.NodeCluster nodes =
        ServiceProcesses.NodeCluster.start(dir.resolve("cluster"), 1)) {
      ServiceProcesses.Endpoints cluster = nodes.endpoints();
      Topics topics = cluster.topics();
      Map<String, String> common = ServiceProcesses.clientVariables(cluster);
      Map<String, String> rendering = new HashMap<>(common);
      rendering.put("CRAWLER_FRONTIER_RENDER", "always");
      Map<String, ServiceProcesses.Service> services = new LinkedHashMap<>();
      for (String name : List.of("frontier", "parser", "committer")) {
        services.put(
            name,
            processes.startPod(
                name,
                name + "-0",
                dir,
                50,
                name.equals("frontier") ? rendering : common,
                Map.of(),
                Map.of()));
      }
      services.put(
          "fetcher", processes.startPod("fetcher", "fetcher", dir, 50, common, Map.of(), Map.of()));
      ServiceProcesses.Service render = startRender(common);
      for (ServiceProcesses.Service service : services.values()) {
        processes.awaitReady(service);
      }
      processes.awaitReady(render);
      ServiceProcesses.seed(cluster, site.urls());

      Map<String, DocumentEvent> published = new HashMap<>();
      await("a part of the pages published, the browser running")
          .atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                published.putAll(ServiceProcesses.readDocuments(cluster, topics));
                return published.size() >= pages.size() / 4
                    && render.process().descendants().findAny().isPresent();
              });
      List<ProcessHandle> browser = render.process().descendants().toList();
      render.process().destroyForcibly(); // SIGKILL
      render.process().waitFor(30, TimeUnit.SECONDS);
      long killedAt = System.nanoTime();
      int publishedAtTheKill = ServiceProcesses.readDocuments(cluster, topics).size();
      await("the killed service's browser is gone")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> browser.stream().noneMatch(ProcessHandle::isAlive));
      double browserGoneAfter = (System.nanoTime() - killedAt) / 1e9;

      String killedProfiles = "browser-" + render.process().pid() + "-";
      assertThat(profiles(killedProfiles)).as("the killed browser's profile, left").isNotEmpty();
      ServiceProcesses.Service restarted = startRender(common);
      processes.awaitReady(restarted);
      assertThat(profiles(killedProfiles))
          .as("the killed browser's profile, deleted by the new instance's start")
          .isEmpty();
      Map<String, DocumentEvent> documents = new HashMap<>();
      await("every page published")
          .atMost(Duration.ofSeconds(240))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                documents.putAll(ServiceProcesses.readDocuments(cluster, topics));
                return documents.keySet().containsAll(pages);
              });
      Map<String, Integer> publications = publications(cluster, topics);
      int rendersAgain =
          (int)
              site.requests().entrySet().stream()
                  .filter(entry -> pages.contains(entry.getKey()) && entry.getValue() > 1)
                  .count();
      System.out.printf(
          Locale.ROOT,
          "render killed with %d of %d pages published and %d browser process(es) running;"
              + " all gone %.1f s after the kill; %d page(s) requested again by the new instance%n",
          publishedAtTheKill,
          pages.size(),
          browser.size(),
          browserGoneAfter,
          rendersAgain);

      assertThat(browser).as("the browser's processes, seen before the kill").isNotEmpty();
      for (String page : pages) {
        Document document = documents.get(page).getDocument();
        assertThat(document.getRendered()).as(page + " rendered").isTrue();
        String path = page.substring(page.indexOf('/', "http://".length()));
        if (!path.equals("/")) { // the home page lists the pages, and has no script
          assertThat(document.getText())
              .as(page + ": the text its script built")
              .contains("Built by script on " + path + ".");
        }
      }
      assertThat(publications)
          .as("each page published once")
          .allSatisfy((url, count) -> assertThat(count).as(url).isEqualTo(1));
      assertThat(publications.keySet()).containsExactlyInAnyOrderElementsOf(pages);
      restarted.process().destroy(); // SIGTERM: the browser is closed with the service
      assertThat(restarted.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  private ServiceProcesses.Service startRender(Map<String, String> common) throws IOException {
    Map<String, String> variables = new HashMap<>(common);
    variables.put("CRAWLER_FETCHER_INSTANCE_ID", "render-0");
    variables.put("CRAWLER_RENDER_PROFILE_DIRECTORY", dir.resolve("profiles").toString());
    return processes.start("render", RenderApp.class, variables);
  }

  /** The browser profile directories whose names start so. */
  private List<Path> profiles(String prefix) throws IOException {
    Path root = dir.resolve("profiles");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(root)) {
      return entries.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
    }
  }

  /** How many times each URL was published on crawl.documents (upserts, tombstones excluded). */
  private static Map<String, Integer> publications(
      ServiceProcesses.Endpoints cluster, Topics topics) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    TopicReader.read(
        ClusterOptions.readerProperties(
            Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers())),
        topics.documents(),
        ClusterOptions.READ_BOUND,
        record -> {
          if (record.value() != null && record.value().getDocument() != null) {
            counts.merge(record.key(), 1, Integer::sum);
          }
          return true;
        },
        problem -> {
          throw new AssertionError("undecodable document event: " + problem);
        });
    return counts;
  }
}
