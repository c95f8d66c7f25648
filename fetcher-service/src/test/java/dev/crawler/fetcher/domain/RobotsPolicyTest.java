package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.robots.BaseRobotRules;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RobotsPolicyTest {

  private static final String ROBOTS = "http://a.example/robots.txt";
  private static final String TXT =
      "User-agent: *\nDisallow: /private/\n\nUser-agent: mybot\nDisallow: /not-for-mybot/\n\nSitemap: http://a.example/sitemap.xml\n";

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource({
    "other-bot/2.0,                  http://a.example/page,            true",
    "other-bot/2.0,                  http://a.example/private/x,       false",
    "other-bot/2.0,                  http://a.example/not-for-mybot/x, true",
    "MyBot/1.0 (+http://x.example/), http://a.example/not-for-mybot/x, false",
    "MyBot/1.0 (+http://x.example/), http://a.example/private/x,       true",
  })
  void matchesRulesOnTheProductToken(String userAgent, String url, boolean allowed) {
    BaseRobotRules rules =
        new RobotsPolicy(userAgent, Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(200, TXT));

    assertThat(RobotsPolicy.isAllowedByRobots(rules, url)).isEqualTo(allowed);
  }

  @ParameterizedTest(name = "status {0} -> allow all {1}, allow none {2}")
  @CsvSource({
    "404, true, false",
    "401, true, false",
    "410, true, false",
    "500, false, true",
    "503, false, true",
    "301, false, true"
  })
  void treatsMissingRobotsAsAllowAllAndAFailingServerAsAllowNone(
      int status, boolean allowAll, boolean allowNone) {
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30))
            .rulesFrom(ROBOTS, response(status, "whatever"));

    assertThat(rules.isAllowAll()).isEqualTo(allowAll);
    assertThat(rules.isAllowNone()).isEqualTo(allowNone);
  }

  @Test
  void disallowsAllWhenRobotsCannotBeFetchedAndRetriesSooner() {
    RobotsPolicy policy = new RobotsPolicy("bot", Duration.ofMinutes(30));
    BaseRobotRules rules =
        policy.rulesFrom(
            ROBOTS,
            new FetchAttempt.Failure(FetchAttempt.FailureKind.CONNECT_FAILED, "refused", 1));

    assertThat(rules.isAllowNone()).isTrue();
    assertThat(policy.validity(rules)).isEqualTo(RobotsPolicy.RETRY_AFTER_FAILURE);
    assertThat(policy.validity(policy.rulesFrom(ROBOTS, response(200, TXT))))
        .isEqualTo(Duration.ofMinutes(30));
  }

  @Test
  void readsSitemapsAndCrawlDelay() {
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30))
            .rulesFrom(
                ROBOTS,
                response(200, "User-agent: *\nCrawl-delay: 5\nSitemap: http://a.example/s.xml\n"));

    assertThat(rules.getSitemaps()).containsExactly("http://a.example/s.xml");
    assertThat(rules.getCrawlDelay()).isEqualTo(5000);
  }

  @Test
  void keepsALongCrawlDelayForTheOriginToCapInsteadOfDisallowingAll() {
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30))
            .rulesFrom(ROBOTS, response(200, "User-agent: *\nCrawl-delay: 3600\nDisallow: /x\n"));

    assertThat(rules.isAllowNone()).isFalse();
    assertThat(RobotsPolicy.isAllowedByRobots(rules, "http://a.example/page")).isTrue();
    assertThat(RobotsPolicy.crawlDelayMillis(rules)).hasValue(3_600_000);
  }

  @Test
  void saysWhenNoCrawlDelayIsSet() {
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(200, TXT));

    assertThat(RobotsPolicy.crawlDelayMillis(rules)).isEmpty();
    assertThat(new RobotsPolicy("bot", Duration.ofMinutes(30)).sitemaps(rules))
        .containsExactly("http://a.example/sitemap.xml");
  }

  /**
   * RFC 9309 section 2.2.2: the most specific (longest) match wins, allow wins a tie, and the
   * special characters {@code *} and {@code $} match.
   */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/folder/page,        false",
    "http://a.example/folder/allowed.html, true",
    "http://a.example/folder/,            false",
    "http://a.example/fish.php,           false",
    "http://a.example/fish.php?x=1,       true",
    "http://a.example/private-data/x,     false",
    "http://a.example/public,             true",
    "http://a.example/tie,                true",
  })
  void appliesTheRfc9309MatchingRules(String url, boolean allowed) {
    String txt =
        "User-agent: *\nDisallow: /folder/\nAllow: /folder/allowed.html\nDisallow: /*.php$\nDisallow: /private*\nDisallow: /tie\nAllow: /tie\n";
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(200, txt));

    assertThat(RobotsPolicy.isAllowedByRobots(rules, url)).isEqualTo(allowed);
  }

  @Test
  void allowsAllWhenTheGroupsNameOtherAgentsOnly() {
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30))
            .rulesFrom(ROBOTS, response(200, "User-agent: otherbot\nDisallow: /\n"));

    assertThat(RobotsPolicy.isAllowedByRobots(rules, "http://a.example/anything")).isTrue();
  }

  @Test
  void parsesOnlyTheFirst500KiB() {
    String padding = "# " + "x".repeat(RobotsPolicy.MAX_BYTES) + "\n";
    BaseRobotRules rules =
        new RobotsPolicy("bot", Duration.ofMinutes(30))
            .rulesFrom(
                ROBOTS,
                response(200, "User-agent: *\nDisallow: /a\n" + padding + "Disallow: /b\n"));

    assertThat(RobotsPolicy.isAllowedByRobots(rules, "http://a.example/a")).isFalse();
    assertThat(RobotsPolicy.isAllowedByRobots(rules, "http://a.example/b"))
        .as("beyond the limit")
        .isTrue();
  }

  @ParameterizedTest
  @CsvSource({
    "kafka-crawler/0.1, kafka-crawler",
    "MyBot/1.0 (+http://x), mybot",
    "Plain, plain",
    "'  spaced bot', spaced"
  })
  void takesTheProductTokenOfTheUserAgent(String userAgent, String token) {
    assertThat(RobotsPolicy.productToken(userAgent)).isEqualTo(token);
  }

  private static FetchAttempt.Response response(int status, String body) {
    return new FetchAttempt.Response(
        status,
        Map.of(),
        body.getBytes(StandardCharsets.UTF_8),
        Optional.of("text/plain"),
        Optional.empty(),
        1);
  }

  @Test
  void readsTheFirstSitemapsOfARobotsTxtThatNamesThousands() {
    StringBuilder txt = new StringBuilder("User-agent: *\nDisallow: /private/\n");
    for (int i = 0; i < 20_000; i++) {
      txt.append("Sitemap: http://a.example/sitemap-").append(i).append(".xml\n");
    }
    RobotsPolicy policy = new RobotsPolicy("bot", Duration.ofMinutes(30), 100);
    var rules = policy.rulesFrom(ROBOTS, response(200, txt.toString()));

    assertThat(policy.sitemaps(rules))
        .hasSize(100)
        .startsWith("http://a.example/sitemap-0.xml", "http://a.example/sitemap-1.xml");
    assertThat(RobotsPolicy.isAllowedByRobots(rules, "http://a.example/private/x")).isFalse();
  }
}
