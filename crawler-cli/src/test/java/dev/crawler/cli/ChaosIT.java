package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.cli.crawl.EditableSite;
import dev.crawler.events.DocumentEvent;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery from {@code kill -9}, as an operator meets it on Kubernetes: the four services as
 * separate processes (two fetchers), each Streams service killed mid-crawl and restarted at once
 * with its instance id and state directory (a StatefulSet pod), then one fetcher killed and not
 * restarted, then the broker killed (its own process) and started again on its data directory.
 * Pages must flow again on every origin within 10 s of a restarted service being ready and within
 * 45 s of the broker being back, the surviving fetcher must take the dead one's origins within 15
 * s, politeness must hold throughout, and every page must be published. The recovery times are
 * printed.
 */
class ChaosIT {

  private static final int ORIGINS = 3;
  private static final int PAGES_PER_ORIGIN = 250;
  private static final long DELAY_MILLIS = 150;
  private static final Duration FLOWING_AGAIN = Duration.ofSeconds(10);
  private static final Duration TAKE_OVER = Duration.ofSeconds(15);

  /**
   * From the broker's return to pages on every origin: the services reconnect, and the hanging
   * transactions the crash left are found and aborted (their producers' timeout, 10 s, then a pass
   * of the watchdog every 5 s).
   */
  private static final Duration BROKER_RECOVERY = Duration.ofSeconds(45);

  /**
   * How long after the broker goes away the fetcher may still start requests (its acknowledgements
   * stall for 2 s).
   */
  private static final Duration BACK_PRESSURE = Duration.ofSeconds(4);

  /** True once a count has not changed for a while. */
  private static final class Standstill implements java.util.concurrent.Callable<Boolean> {
    private final java.util.function.IntSupplier count;
    private final Duration quiet;
    private int last = -1;
    private long changedAt;

    Standstill(java.util.function.IntSupplier count, Duration quiet) {
      this.count = count;
      this.quiet = quiet;
    }

    @Override
    public Boolean call() {
      int now = count.getAsInt();
      if (now != last) {
        last = now;
        changedAt = System.nanoTime();
        return false;
      }
      return System.nanoTime() - changedAt >= quiet.toNanos();
    }
  }

  /** The pods' terminationGracePeriodSeconds. */
  private static final Duration GRACE_PERIOD = Duration.ofSeconds(60);

  @TempDir Path dir;

  @RegisterExtension final EditableSite site = new EditableSite(ORIGINS);

  @RegisterExtension final ServiceProcesses processes = new ServiceProcesses(ChaosIT.class);

  @Test
  void killedServicesRecoverInSecondsAndNoPageIsLostOrImpolite() throws Exception {
    Set<String> pages = site.addLinkedPages(PAGES_PER_ORIGIN, "");
    try (ServiceProcesses.NodeCluster nodes =
        ServiceProcesses.NodeCluster.start(dir.resolve("cluster"), 1)) {
      ServiceProcesses.Endpoints cluster = nodes.endpoints();
      Topics topics = cluster.topics();
      Map<String, String> common = ServiceProcesses.clientVariables(cluster);
      Map<String, ServiceProcesses.Service> services = new LinkedHashMap<>();
      for (String name : List.of("frontier", "parser", "committer", "fetcher-1", "fetcher-2")) {
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
      for (String name : List.of("frontier", "parser", "committer")) {
        ServiceProcesses.Service killed = services.get(name);
        long killedAt = System.nanoTime();
        killed.process().destroyForcibly(); // SIGKILL
        killed.process().waitFor(30, TimeUnit.SECONDS);
        ServiceProcesses.Service restarted = start(name, common);
        services.put(name, restarted);
        processes.awaitReady(restarted);
        long readyAt = System.nanoTime();
        await(name + ": pages flow again on every origin")
            .atMost(FLOWING_AGAIN.plusSeconds(20))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> site.isEveryOriginServedSince(readyAt));
        long flowingAt = System.nanoTime();
        figures.add(
            String.format(
                Locale.ROOT,
                "%s killed: ready again %.1f s after the kill, every origin served %.1f s after ready",
                name,
                seconds(readyAt - killedAt),
                seconds(flowingAt - readyAt)));
        System.out.println(figures.get(figures.size() - 1));
        assertThat(Duration.ofNanos(flowingAt - readyAt))
            .as(name + ": every origin served again after the restart")
            .isLessThanOrEqualTo(FLOWING_AGAIN);
      }

      ServiceProcesses.Service dead = services.remove("fetcher-2");
      long killedAt = System.nanoTime();
      dead.process().destroyForcibly();
      await("fetcher-1 takes fetcher-2's origins")
          .atMost(TAKE_OVER.plusSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> site.isEveryOriginServedSince(killedAt + TimeUnit.SECONDS.toNanos(1)));
      long takenAt = System.nanoTime();
      figures.add(
          String.format(
              Locale.ROOT,
              "fetcher-2 killed, not restarted: every origin served %.1f s after the kill",
              seconds(takenAt - killedAt)));
      System.out.println(figures.get(figures.size() - 1));
      assertThat(Duration.ofNanos(takenAt - killedAt))
          .as("the surviving fetcher takes the dead one's origins")
          .isLessThanOrEqualTo(TAKE_OVER);

      // the broker is killed: the fetcher stops starting requests whose results it cannot write,
      // and services told to stop meanwhile stop within their grace period
      nodes.kafka().kill(1);
      long brokerDownAt = System.nanoTime();
      // the fetcher stops starting requests: the site's count stands still
      Awaitility.await()
          .atMost(BACK_PRESSURE.multipliedBy(5))
          .pollInterval(Duration.ofMillis(200))
          .until(new Standstill(() -> site.served().size(), BACK_PRESSURE));
      int servedBefore = site.served().size();
      ServiceProcesses.Service fetcher = services.get("fetcher-1");
      ServiceProcesses.Service parser = services.get("parser");
      fetcher.process().destroy(); // SIGTERM
      parser.process().destroy();
      for (ServiceProcesses.Service stopping : List.of(fetcher, parser)) {
        assertThat(stopping.process().waitFor(GRACE_PERIOD.toSeconds(), TimeUnit.SECONDS))
            .as(stopping.name() + " stops within its grace period with the broker away")
            .isTrue();
      }
      int servedWhileDown = site.served().size() - servedBefore;
      System.out.printf(
          Locale.ROOT,
          "broker away: pages served in the %d s after the first %d s: %d; fetcher-1 and parser stopped on SIGTERM%n",
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - brokerDownAt)
              - BACK_PRESSURE.toSeconds(),
          BACK_PRESSURE.toSeconds(),
          servedWhileDown);
      assertThat(servedWhileDown)
          .as("no page fetched once the fetcher knows its results cannot be written")
          .isZero();
      nodes.kafka().start(1);
      nodes.kafka().awaitNodes(Set.of(1), Duration.ofSeconds(120));
      long brokerBackAt = System.nanoTime();
      for (String name : List.of("parser", "fetcher-1")) {
        services.put(name, start(name, common));
      }
      await("pages flow again on every origin after the broker's crash")
          .atMost(BROKER_RECOVERY.plusSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> site.isEveryOriginServedSince(brokerBackAt));
      long flowingAt = System.nanoTime();
      figures.add(
          String.format(
              Locale.ROOT,
              "broker killed and restarted: every origin served %.1f s after it was back",
              seconds(flowingAt - brokerBackAt)));
      System.out.println(figures.get(figures.size() - 1));
      assertThat(Duration.ofNanos(flowingAt - brokerBackAt))
          .as("the crawl goes on after the broker's crash")
          .isLessThanOrEqualTo(BROKER_RECOVERY);
      for (String name : List.of("frontier", "committer")) {
        assertThat(processes.get(services.get(name), "/health/live").statusCode())
            .as(name + " alive after the broker's crash")
            .isEqualTo(200);
      }

      Map<String, DocumentEvent> documents = new HashMap<>();
      await("every page published")
          .atMost(Duration.ofSeconds(240))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                documents.putAll(ServiceProcesses.readDocuments(cluster, topics));
                return documents.keySet().containsAll(pages);
              });
      assertThat(documents.keySet()).containsExactlyInAnyOrderElementsOf(pages);
      assertPolite();
      long fetchedAgain = site.requests().values().stream().filter(count -> count > 1).count();
      System.out.println(
          "pages fetched more than once (requests of a killed fetcher whose results were not written): "
              + fetchedAgain);
    }
  }

  /** No two requests to one origin closer than the delay, through every kill and take-over. */
  private void assertPolite() {
    long closest = site.closestRequestsToOneOrigin();
    System.out.printf(
        Locale.ROOT,
        "closest two requests to one origin: %.0f ms (delay %d ms)%n",
        closest / 1e6,
        DELAY_MILLIS);
    assertThat(TimeUnit.NANOSECONDS.toMillis(closest))
        .as("politeness")
        .isGreaterThanOrEqualTo(DELAY_MILLIS);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  /** A service process named like its pod, restarted under its instance id on its state. */
  private ServiceProcesses.Service start(String name, Map<String, String> common)
      throws IOException {
    String instanceId = name.startsWith("fetcher") ? name : name + "-0";
    return processes.startPod(name, instanceId, dir, DELAY_MILLIS, common, Map.of(), Map.of());
  }
}
