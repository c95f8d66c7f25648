package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crawler.embedded.EmbeddedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's hand on a running crawl of two origins, through the commands and a real broker:
 * pause and resume one origin, set the other's delay and reset it, block the first with its
 * documents deleted. Measures the time from each command to the last request the origin received
 * (and, for resume, to its first), and checks that no request reaches a paused or blocked origin
 * once the command is acknowledged, and that the delay an operator set is kept to the millisecond.
 */
class HoldIT {

  /**
   * How many requests to a held origin may still arrive after the acknowledgement: the one in
   * flight when the command was applied (one connection per origin), however loaded the machine.
   */
  private static final int IN_FLIGHT_AT_MOST = 1;

  @TempDir Path work;

  @RegisterExtension final EditableSite site = new EditableSite(2);

  @Test
  void pausesResumesDelaysAndBlocksOriginsOfARunningCrawl() throws Exception {
    site.addLinkedPages(200, "");
    String a = site.urls().get(0);
    String b = site.urls().get(1);
    try (EmbeddedCluster cluster = EmbeddedCluster.start(work.resolve("kafka"), 3)) {
      CrawlerAt crawler = CrawlerAt.of(cluster);
      CompletableFuture<Integer> crawl =
          crawler.runInBackground(
              "crawl",
              a + "/",
              b + "/",
              "--delay-ms",
              "50",
              "--data-dir",
              work.resolve("data").toString(),
              "--out",
              work.resolve("documents.jsonl").toString(),
              "--crawl-log",
              work.resolve("log.jsonl").toString());
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> site.requestTimes(a).size() >= 15 && site.requestTimes(b).size() >= 15);

      // pause a: nothing reaches it once the command is acknowledged
      long pausedAt = System.nanoTime();
      assertThat(crawler.run("pause", a)).isZero();
      long pauseAcknowledged = System.nanoTime();
      int bBefore = site.requestTimes(b).size();
      // the other origin goes on meanwhile: a crawl that runs, and nothing reaches the paused one
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> site.requestTimes(b).size() > bBefore + 20);
      List<Long> aDuringPause = site.requestTimes(a);
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream stdout = System.out;
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        assertThat(crawler.run("status")).isZero();
      } finally {
        System.setOut(stdout);
      }
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("HELD BY OPERATORS")
          .contains("paused " + a + " by ");
      long lastBeforePause = last(aDuringPause);
      assertThat(aDuringPause.stream().filter(time -> time > pauseAcknowledged))
          .as("requests to the paused origin after the acknowledgement")
          .hasSizeLessThanOrEqualTo(IN_FLIGHT_AT_MOST);
      report("pause", pausedAt, pauseAcknowledged, lastBeforePause);

      // resume a: its queue goes on
      long resumedAt = System.nanoTime();
      assertThat(crawler.run("resume", a)).isZero();
      Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> site.requestTimes(a).size() > aDuringPause.size());
      long firstAfterResume = site.requestTimes(a).get(aDuringPause.size());
      System.out.printf(
          Locale.ROOT,
          "resume: first request %d ms after the command%n",
          TimeUnit.NANOSECONDS.toMillis(firstAfterResume - resumedAt));

      // b's delay raised to 300 ms, then back
      assertThat(crawler.run("delay", b, "300")).isZero();
      long delayAcknowledged = System.nanoTime();
      // the gaps of six requests after the acknowledgement (about 2 s at the raised delay)
      Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  site.requestTimes(b).stream().filter(time -> time > delayAcknowledged).count()
                      >= 6);
      List<Long> slowed =
          site.requestTimes(b).stream().filter(time -> time > delayAcknowledged).toList();
      assertThat(slowed).hasSizeGreaterThanOrEqualTo(4);
      long closest = Long.MAX_VALUE;
      for (int i = 1; i < slowed.size(); i++) {
        closest = Math.min(closest, slowed.get(i) - slowed.get(i - 1));
      }
      System.out.printf(
          Locale.ROOT,
          "delay 300 ms: %d requests in 2 s, the closest two %d ms apart%n",
          slowed.size(),
          TimeUnit.NANOSECONDS.toMillis(closest));
      assertThat(TimeUnit.NANOSECONDS.toMillis(closest)).isGreaterThanOrEqualTo(300);
      assertThat(crawler.run("delay", b, "--reset")).isZero();

      // block a, its documents deleted
      long blockedAt = System.nanoTime();
      assertThat(crawler.run("block", a, "--delete-documents")).isZero();
      long blockAcknowledged = System.nanoTime();

      assertThat(crawl.get(180, TimeUnit.SECONDS)).isZero();
      long lastBeforeBlock = last(site.requestTimes(a));
      assertThat(site.requestTimes(a).stream().filter(time -> time > blockAcknowledged))
          .as("requests to the blocked origin after the acknowledgement")
          .hasSizeLessThanOrEqualTo(IN_FLIGHT_AT_MOST);
      report("block", blockedAt, blockAcknowledged, lastBeforeBlock);

      Map<String, String> lastEvent = new TreeMap<>();
      for (JsonNode event : JsonLines.read(work.resolve("documents.jsonl"))) {
        lastEvent.put(event.get("url").asText(), event.get("type").asText());
      }
      List<String> aPublished = new ArrayList<>();
      lastEvent.forEach(
          (url, type) -> {
            if (url.startsWith(a + "/") && type.equals("UPSERT")) {
              aPublished.add(url);
            }
          });
      assertThat(aPublished).as("documents of the blocked origin still published").isEmpty();
      assertThat(lastEvent.keySet().stream().filter(url -> url.startsWith(a + "/")))
          .as("documents of a deleted")
          .hasSizeGreaterThan(15);
      assertThat(
              lastEvent.entrySet().stream()
                  .filter(e -> e.getKey().startsWith(b + "/") && e.getValue().equals("UPSERT")))
          .as("b crawled to the end")
          .hasSize(201);
      List<String> operatorLines = new ArrayList<>();
      for (JsonNode line : JsonLines.read(work.resolve("log.jsonl"))) {
        if (line.get("outcome").asText().equals("OPERATOR")) {
          operatorLines.add(line.get("detail").asText());
        }
      }
      assertThat(operatorLines)
          .anySatisfy(line -> assertThat(line).startsWith("pause " + a + " issued by "))
          .anySatisfy(line -> assertThat(line).contains("(frontier task "))
          .anySatisfy(line -> assertThat(line).contains("(fetcher "));
    }
  }

  private static long last(List<Long> times) {
    return times.get(times.size() - 1);
  }

  private static void report(String command, long issued, long acknowledged, long lastRequest) {
    System.out.printf(
        Locale.ROOT,
        "%s: acknowledged %d ms after the command; last request %d ms after the command (%d ms"
            + " before the acknowledgement)%n",
        command,
        TimeUnit.NANOSECONDS.toMillis(acknowledged - issued),
        TimeUnit.NANOSECONDS.toMillis(lastRequest - issued),
        TimeUnit.NANOSECONDS.toMillis(acknowledged - lastRequest));
  }
}
