package dev.crawler.fetcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.embedded.junit.KafkaClusterExtension;
import dev.crawler.embedded.junit.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetchers joining and leaving one consumer group mid-crawl: every URL is fetched, none twice, and
 * no origin sees two requests closer than its delay, across the hand-overs.
 */
@ExtendWith(KafkaClusterExtension.class)
class FetcherScalingIT {

  private static final Logger LOG = LoggerFactory.getLogger(FetcherScalingIT.class);
  private static final int ORIGINS = 9;
  private static final int PAGES = 6;
  private static final long DELAY = 1500;

  private static TestCluster cluster;

  @BeforeAll
  static void cluster(TestCluster testCluster) {
    cluster = testCluster;
  }

  @Test
  void aFetcherJoiningAndOneLeavingLoseNothingAndKeepEveryOriginsDelay() throws Exception {
    List<TestOrigins.Site> sites = new ArrayList<>();
    for (int i = 0; i < ORIGINS; i++) {
      sites.add(new TestOrigins.Site().slow(30));
    }
    try (TestOrigins origins = TestOrigins.start(sites);
        FetcherHarness harness = new FetcherHarness(cluster, "scaling")) {
      FetcherApp first = harness.startFetcher("first", Map.of());
      FetcherApp second = harness.startFetcher("second", Map.of());
      List<String> urls = new ArrayList<>();
      for (int page = 0; page < PAGES; page++) {
        for (int i = 0; i < ORIGINS; i++) {
          urls.add(origins.origin(i) + "/page/" + page);
        }
      }
      urls.forEach(url -> harness.request(url, Map.of("delay-ms", Long.toString(DELAY))));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> answered(harness, urls) >= urls.size() / 4);
      harness.startFetcher("third", Map.of());
      LOG.info("third fetcher joined at {} of {} URLs", answered(harness, urls), urls.size());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> answered(harness, urls) >= urls.size() * 6 / 10);
      harness.stopFetcher(second);
      LOG.info("second fetcher left at {} of {} URLs", answered(harness, urls), urls.size());

      await().atMost(Duration.ofSeconds(60)).until(() -> answered(harness, urls) == urls.size());
      assertThat(first.isRunning()).isTrue();
      harness.awaitEverythingRead(
          Duration.ofSeconds(60)); // a duplicate would be read by now, if any

      assertThat(urls).allSatisfy(url -> assertThat(harness.results(url)).as(url).isNotEmpty());
      assertThat(urls).as("fetched twice").filteredOn(url -> harness.answers(url) > 1).isEmpty();
      for (int i = 0; i < ORIGINS; i++) {
        String origin = origins.origin(i);
        List<String> paths = origins.hits(origin).stream().map(TestOrigins.Hit::path).toList();
        assertThat(paths)
            .as("every page once at %s", origin)
            .filteredOn(path -> path.startsWith("/page/"))
            .hasSize(PAGES)
            .doesNotHaveDuplicates();
        assertThat(paths)
            .as("robots.txt once per owner at most")
            .filteredOn("/robots.txt"::equals)
            .hasSizeBetween(1, 3);
        assertThat(origins.smallestGap(origin))
            .as("the smallest gap at %s", origin)
            .isGreaterThanOrEqualTo(DELAY - 2);
      }
    }
  }

  private static long answered(FetcherHarness harness, List<String> urls) {
    return urls.stream().filter(harness::isAnswered).count();
  }
}
