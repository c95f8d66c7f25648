package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crawler.cli.CrawlerCli;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running crawl's configuration changed without a restart: {@code crawler config apply} refuses a
 * bad file as loading does, puts a good one in force on every frontier task (acknowledged), and
 * from then on the origin its new rule slows is crawled at the new delay, the crawl log names the
 * new version, and {@code crawler config show} prints it.
 */
class ConfigApplyIT {

  /**
   * How long after the acknowledgement a request the new rules filter may still arrive: one already
   * running, or given back by a fetcher that had not yet read the new configuration.
   */
  private static final long FILTER_SETTLES_SECONDS = 5;

  @TempDir Path work;

  @RegisterExtension final EditableSite site = new EditableSite(2);

  @Test
  void appliesANewConfigurationToARunningCrawl() throws Exception {
    site.addLinkedPages(100, "");
    String a = site.urls().get(0);
    String b = site.urls().get(1);
    String bPort = b.substring(b.lastIndexOf(':') + 1);
    Path first = Files.writeString(work.resolve("crawl.yaml"), "global: {delay-ms: 50}\n");
    try (EmbeddedCluster cluster = EmbeddedCluster.start(work.resolve("kafka"), 3)) {
      CrawlerAt crawler = CrawlerAt.of(cluster);
      CompletableFuture<Integer> crawl =
          crawler.runInBackground(
              "crawl",
              a + "/",
              b + "/",
              "--config",
              first.toString(),
              "--data-dir",
              work.resolve("data").toString(),
              "--crawl-log",
              work.resolve("log.jsonl").toString());
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> site.requestTimes(b).size() >= 10);

      Path bad = Files.writeString(work.resolve("bad.yaml"), "global:\n  delay-ms: soon\n");
      assertThat(crawler.run("config", "apply", bad.toString())).isEqualTo(CrawlerCli.USAGE_ERROR);

      Path second =
          Files.writeString(
              work.resolve("slower.yaml"),
              "global: {delay-ms: 50}\n"
                  + "rules:\n"
                  + "  - apply-for: {url-regex: ':"
                  + bPort
                  + "/'}\n"
                  + "    options: {delay-ms: 400}\n"
                  + "  - may-not-have: {path-regex: '^/page/[0-9]*[02468]$'}\n"
                  + "    log: true\n");
      String version = CrawlConfigLoader.load(second).version();
      long applied = System.nanoTime();
      assertThat(crawler.run("config", "apply", second.toString())).isZero();
      long acknowledged = System.nanoTime();
      // the requests the fetcher held with the old options
      // go first; then three come the new delay apart
      long newDelay = TimeUnit.MILLISECONDS.toNanos(400);
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                List<Long> times = site.requestTimes(b);
                int last = times.size() - 1;
                return last > 1
                    && times.get(last - 1) > acknowledged
                    && times.get(last) - times.get(last - 1) >= newDelay
                    && times.get(last - 1) - times.get(last - 2) >= newDelay;
              });
      long from = System.nanoTime();
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> site.requestTimes(b).stream().filter(time -> time > from).count() >= 4);
      List<Long> slowed = site.requestTimes(b).stream().filter(time -> time > from).toList();
      long closest = Long.MAX_VALUE;
      for (int i = 1; i < slowed.size(); i++) {
        closest = Math.min(closest, slowed.get(i) - slowed.get(i - 1));
      }
      System.out.printf(
          Locale.ROOT,
          "config apply: acknowledged %d ms after the command; then %d requests to the slowed"
              + " origin, the closest two %d ms apart%n",
          TimeUnit.NANOSECONDS.toMillis(acknowledged - applied),
          slowed.size(),
          TimeUnit.NANOSECONDS.toMillis(closest));
      assertThat(slowed).hasSizeGreaterThanOrEqualTo(3);
      assertThat(TimeUnit.NANOSECONDS.toMillis(closest)).isGreaterThanOrEqualTo(400);

      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream stdout = System.out;
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        assertThat(crawler.run("config", "show")).isZero();
      } finally {
        System.setOut(stdout);
      }
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .startsWith("# configuration " + version + ", from " + second)
          .contains("options: {delay-ms: 400}");

      assertThat(crawl.get(180, TimeUnit.SECONDS)).isZero();
      // once acknowledged, what the new rules filter is not fetched, queued before or not
      long settled = acknowledged + TimeUnit.SECONDS.toNanos(FILTER_SETTLES_SECONDS);
      List<String> filteredLate = new ArrayList<>();
      long filteredAfterAcknowledgement = 0;
      for (EditableSite.Served served : site.served()) {
        if (served.path().matches("/page/[0-9]*[02468]") && served.nanoTime() > acknowledged) {
          filteredAfterAcknowledgement++;
          if (served.nanoTime() > settled) {
            filteredLate.add(served.origin() + served.path());
          }
        }
      }
      System.out.printf(
          Locale.ROOT,
          "config apply: %d requests to URLs the new rules filter after the acknowledgement, %d"
              + " later than %d s after it%n",
          filteredAfterAcknowledgement,
          filteredLate.size(),
          FILTER_SETTLES_SECONDS);
      assertThat(filteredLate)
          .as(
              "requests to URLs the new rules filter, later than %d s after the acknowledgement",
              FILTER_SETTLES_SECONDS)
          .isEmpty();
      assertThat(JsonLines.read(work.resolve("log.jsonl")))
          .as("a queued URL the new rules filter is logged so, with the rule")
          .anySatisfy(
              line -> {
                assertThat(line.path("outcome").asText()).isEqualTo("FILTERED");
                assertThat(line.path("url").asText()).matches(".*/page/[0-9]*[02468]");
                assertThat(line.path("rule").asText()).contains("configuration " + version);
              });
      List<String> versions = new ArrayList<>();
      for (JsonNode line : JsonLines.read(work.resolve("log.jsonl"))) {
        if (line.has("configVersion") && line.get("url").asText().startsWith(b + "/page/")) {
          versions.add(line.get("configVersion").asText());
        }
      }
      assertThat(versions)
          .as("each URL's lines name the configuration that decided it")
          .contains(CrawlConfigLoader.load(first).version(), version);
      assertThat(JsonLines.read(work.resolve("log.jsonl")))
          .anySatisfy(
              line ->
                  assertThat(line.get("detail").asText())
                      .startsWith("configuration " + version + " in force"));
    }
  }
}
