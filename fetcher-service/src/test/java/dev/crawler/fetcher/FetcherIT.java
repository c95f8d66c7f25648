package dev.crawler.fetcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.embedded.junit.KafkaClusterExtension;
import dev.crawler.embedded.junit.TestCluster;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.FetchResult;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fetcher against a real broker and real origins on 127.0.0.1: politeness as the servers see
 * it, robots.txt, rate limits, patience, and the ways responses go wrong.
 */
@ExtendWith(KafkaClusterExtension.class)
class FetcherIT {

  private static TestCluster cluster;

  @BeforeAll
  static void cluster(TestCluster testCluster) {
    cluster = testCluster;
  }

  @Test
  void keepsEachOriginsDelayBetweenTheEndOfOneRequestAndTheStartOfTheNext() throws Exception {
    try (TestOrigins origins =
            TestOrigins.start(
                List.of(
                    new TestOrigins.Site(),
                    new TestOrigins.Site().slow(50),
                    new TestOrigins.Site(),
                    new TestOrigins.Site().robots("User-agent: *\nAllow: /\n")));
        FetcherHarness harness = new FetcherHarness(cluster, "politeness")) {
      harness.startFetcher("f1", Map.of());
      List<String> urls = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        for (int page = 0; page < 6; page++) {
          urls.add(origins.origin(i) + "/page/" + page);
        }
      }
      urls.forEach(url -> harness.request(url, Map.of("delay-ms", "250")));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> urls.stream().allMatch(harness::isAnswered));

      for (int i = 0; i < 4; i++) {
        String origin = origins.origin(i);
        assertThat(origins.hits(origin))
            .as("robots.txt, tdmrep.json and six pages of %s", origin)
            .hasSize(8);
        assertThat(origins.hits(origin).get(0).path()).isEqualTo("/robots.txt");
        assertThat(origins.hits(origin).get(1).path()).isEqualTo("/.well-known/tdmrep.json");
        assertThat(origins.smallestGap(origin))
            .as("the smallest gap at %s", origin)
            .isGreaterThanOrEqualTo(248);
      }
      assertThat(urls).allSatisfy(url -> assertThat(harness.results(url)).hasSize(1));
      FetchResult result = harness.results(urls.get(0)).get(0);
      assertThat(result.getStatus()).isEqualTo(200);
      assertThat(StandardCharsets.UTF_8.decode(result.getBody()).toString())
          .contains("<title>/page/0</title>");
    }
  }

  @Test
  void raisesTheDelayToRobotsCrawlDelayAndSendsItsSitemaps() throws Exception {
    String robots =
        "User-agent: test-bot\nCrawl-delay: 1\nDisallow: /private/\n\nSitemap: http://127.0.0.1:1/sitemap.xml\n";
    try (TestOrigins origins = TestOrigins.start(List.of(new TestOrigins.Site().robots(robots)));
        FetcherHarness harness = new FetcherHarness(cluster, "crawl-delay")) {
      harness.startFetcher("f1", Map.of());
      String origin = origins.origin(0);
      List<String> urls =
          List.of(
              origin + "/page/1",
              origin + "/private/secret",
              origin + "/page/2",
              origin + "/page/3");
      urls.forEach(url -> harness.request(url, Map.of("delay-ms", "0")));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> urls.stream().allMatch(harness::isAnswered));

      assertThat(origins.hits(origin))
          .extracting(TestOrigins.Hit::path)
          .containsExactly(
              "/robots.txt", "/.well-known/tdmrep.json", "/page/1", "/page/2", "/page/3");
      assertThat(origins.smallestGap(origin)).isGreaterThanOrEqualTo(998);
      assertThat(harness.outcomes(origin + "/private/secret"))
          .extracting(CrawlOutcome::getOutcome)
          .containsExactly(Outcome.BLOCKED_BY_ROBOTS_TXT);
      assertThat(harness.outcomes(origin + "/private/secret").get(0).getOriginDelayMillis())
          .isEqualTo(1000L);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> harness.discovered().stream().anyMatch(d -> d.getKind() == UrlKind.SITEMAP));
      assertThat(harness.discovered())
          .filteredOn(d -> d.getKind() == UrlKind.SITEMAP)
          .extracting(DiscoveredUrl::getUrl)
          .containsExactly("http://127.0.0.1:1/sitemap.xml");
    }
  }

  @Test
  void honoursRetryAfterOnA429() throws Exception {
    try (TestOrigins origins =
            TestOrigins.start(List.of(new TestOrigins.Site().rateLimited(1, "2")));
        FetcherHarness harness = new FetcherHarness(cluster, "rate-limit")) {
      harness.startFetcher("f1", Map.of());
      String origin = origins.origin(0);
      harness.request(origin + "/page/1", Map.of("delay-ms", "0"));
      harness.request(origin + "/page/2", Map.of("delay-ms", "0"));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  harness.isAnswered(origin + "/page/1") && harness.isAnswered(origin + "/page/2"));

      CrawlOutcome limited = harness.outcomes(origin + "/page/1").get(0);
      assertThat(limited.getOutcome()).isEqualTo(Outcome.RATE_LIMITED);
      assertThat(limited.getDetail()).isEqualTo("429 retry after 2");
      assertThat(harness.results(origin + "/page/2")).hasSize(1);
      List<TestOrigins.Hit> hits = origins.hits(origin);
      assertThat(hits)
          .extracting(TestOrigins.Hit::path)
          .containsExactly("/robots.txt", "/.well-known/tdmrep.json", "/page/1", "/page/2");
      assertThat(hits.get(3).startMillis() - hits.get(2).endMillis())
          .as("the wait Retry-After asked for")
          .isGreaterThanOrEqualTo(1998);
    }
  }

  @Test
  void doesNotCrawlAnOriginWhoseRobotsTxtFailsAndCrawlsOneWithoutRobotsTxt() throws Exception {
    try (TestOrigins origins =
            TestOrigins.start(
                List.of(
                    new TestOrigins.Site().robotsStatus(404),
                    new TestOrigins.Site().robotsStatus(500),
                    new TestOrigins.Site().robots("x").robotsDelay(5000)));
        FetcherHarness harness = new FetcherHarness(cluster, "robots-failures")) {
      harness.startFetcher("f1", Map.of(FetcherConfig.REQUEST_TIMEOUT_MS_CONFIG, "1500"));
      List<String> urls =
          List.of(
              origins.origin(0) + "/page/1",
              origins.origin(1) + "/page/1",
              origins.origin(2) + "/page/1");
      urls.forEach(url -> harness.request(url, Map.of("delay-ms", "0")));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> urls.stream().allMatch(harness::isAnswered));

      assertThat(harness.results(urls.get(0))).as("no robots.txt: allowed").hasSize(1);
      for (String url : urls.subList(1, 3)) {
        CrawlOutcome deferred = harness.outcomes(url).get(0);
        assertThat(deferred.getOutcome()).as(url).isEqualTo(Outcome.DEFERRED);
        assertThat(deferred.getDetail()).startsWith("robots.txt unavailable");
        assertThat(deferred.getRetryAt())
            .as("tried again in a minute")
            .isAfter(Instant.now().plusSeconds(30));
      }
      assertThat(origins.hits(origins.origin(1)))
          .extracting(TestOrigins.Hit::path)
          .containsExactly("/robots.txt");
    }
  }

  @Test
  void pausesAnOriginWhosePatienceRanOutAndDefersItsRequests() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    String origin = "http://127.0.0.1:" + closedPort;
    try (FetcherHarness harness = new FetcherHarness(cluster, "patience")) {
      harness.startFetcher("f1", Map.of(FetcherConfig.OBEY_ROBOTS_CONFIG, "false"));
      List<String> urls = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        urls.add(origin + "/page/" + i);
      }
      urls.forEach(
          url ->
              harness.request(url, Map.of("delay-ms", "0", "patience", "2", "pause-ms", "600000")));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> urls.stream().allMatch(harness::isAnswered));

      List<Outcome> outcomes =
          urls.stream().map(url -> harness.outcomes(url).get(0).getOutcome()).toList();
      assertThat(outcomes)
          .containsExactly(
              Outcome.NETWORK_ERROR,
              Outcome.NETWORK_ERROR,
              Outcome.DEFERRED,
              Outcome.DEFERRED,
              Outcome.DEFERRED);
      assertThat(harness.outcomes(urls.get(1)).get(0).getRetryAt())
          .as("the failing request names the pause")
          .isAfter(Instant.now().plusSeconds(500));
      assertThat(harness.outcomes(urls.get(4)).get(0).getDetail()).startsWith("origin paused");
    }
  }

  @Test
  void keepsAFastOriginAtItsPaceBesideASlowOne() throws Exception {
    try (TestOrigins origins =
            TestOrigins.start(List.of(new TestOrigins.Site().slow(1500), new TestOrigins.Site()));
        FetcherHarness harness = new FetcherHarness(cluster, "slow-origin")) {
      harness.startFetcher("f1", Map.of());
      String slow = origins.origin(0);
      String fast = origins.origin(1);
      List<String> urls = new ArrayList<>();
      for (int page = 0; page < 10; page++) {
        urls.add(slow + "/page/" + page);
        urls.add(fast + "/page/" + page);
      }
      urls.forEach(url -> harness.request(url, Map.of("delay-ms", "100")));
      harness.flush();

      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  urls.stream().filter(url -> url.startsWith(fast)).allMatch(harness::isAnswered));

      assertThat(origins.hits(slow).size())
          .as("the slow origin is still being fetched")
          .isLessThan(8);
      List<TestOrigins.Hit> fastHits = origins.hits(fast);
      long span = fastHits.get(fastHits.size() - 1).endMillis() - fastHits.get(0).startMillis();
      assertThat(span)
          .as("ten pages at 100 ms apart, not held up by the slow origin")
          .isLessThan(3000);
    }
  }

  @Test
  void recordsWhatGoesWrongInAResponse() throws Exception {
    try (TestOrigins origins = TestOrigins.start(List.of(new TestOrigins.Site()));
        FetcherHarness harness = new FetcherHarness(cluster, "responses")) {
      String gibberish =
          origins.raw(
              path ->
                  "SSH-2.0-OpenSSH_9.6\r\n\r\nnot http at all\r\n"
                      .getBytes(StandardCharsets.ISO_8859_1));
      String truncated =
          origins.raw(
              path ->
                  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html>cut sh"
                      .getBytes(StandardCharsets.ISO_8859_1));
      harness.startFetcher(
          "f1",
          Map.of(
              FetcherConfig.MAX_BODY_BYTES_CONFIG,
              "1048576",
              FetcherConfig.OBEY_ROBOTS_CONFIG,
              "false"));
      String origin = origins.origin(0);
      Map<String, String> none = Map.of("delay-ms", "0");
      harness.request(gibberish + "/", none);
      harness.request(truncated + "/", none);
      harness.request(origin + "/bomb", none);
      harness.request(origin + "/gzipped/page", none);
      harness.request(origin + "/moved/3", none);
      harness.request(origin + "/moved/2", Map.of("delay-ms", "0", "redirects", "follow 5"));
      harness.request(origin + "/loop/a", Map.of("delay-ms", "0", "redirects", "follow 5"));
      harness.request(origin + "/file.pdf", Map.of("delay-ms", "0", "content-types", "text/html"));
      harness.request(
          origin + "/page/headed",
          Map.of("delay-ms", "0", "head", "required", "content-types", "text/*"));
      harness.flush();

      List<String> urls =
          List.of(
              gibberish + "/",
              truncated + "/",
              origin + "/bomb",
              origin + "/gzipped/page",
              origin + "/moved/3",
              origin + "/moved/2",
              origin + "/loop/a",
              origin + "/file.pdf",
              origin + "/page/headed");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> urls.stream().allMatch(harness::isAnswered));

      assertThat(outcome(harness, gibberish + "/"))
          .startsWith("NETWORK_ERROR protocol error: ")
          .hasSizeLessThan(250);
      assertThat(outcome(harness, truncated + "/"))
          .isEqualTo(
              "NETWORK_ERROR broken response: the server closed the connection before the response ended");
      assertThat(outcome(harness, origin + "/bomb")).startsWith("TOO_LARGE");
      assertThat(
              StandardCharsets.UTF_8
                  .decode(harness.results(origin + "/gzipped/page").get(0).getBody())
                  .toString())
          .contains("gzipped /gzipped/page");
      assertThat(outcome(harness, origin + "/moved/3"))
          .isEqualTo("REDIRECT 301 " + origin + "/moved/2");
      assertThat(harness.discovered())
          .anySatisfy(
              d -> {
                assertThat(d.getKind()).isEqualTo(UrlKind.REDIRECT);
                assertThat(d.getUrl()).isEqualTo(origin + "/moved/2");
                assertThat(d.getSourceUrl()).isEqualTo(origin + "/moved/3");
              });
      FetchResult followed = harness.results(origin + "/moved/2").get(0);
      assertThat(followed.getRedirectChain())
          .containsExactly(origin + "/moved/2", origin + "/moved/1");
      assertThat(followed.getFinalUrl()).isEqualTo(origin + "/page/after-redirects");
      assertThat(outcome(harness, origin + "/loop/a"))
          .isEqualTo("REDIRECT 302 " + origin + "/loop/a (redirect loop)");
      assertThat(outcome(harness, origin + "/file.pdf")).startsWith("FILTERED METADATA");
      assertThat(harness.results(origin + "/page/headed")).hasSize(1);
      assertThat(origins.hits(origin))
          .extracting(TestOrigins.Hit::path)
          .containsSubsequence("/page/headed", "/page/headed");
    }
  }

  private static String outcome(FetcherHarness harness, String url) {
    CrawlOutcome outcome = harness.outcomes(url).get(0);
    return outcome.getOutcome() + " " + outcome.getDetail();
  }
}
