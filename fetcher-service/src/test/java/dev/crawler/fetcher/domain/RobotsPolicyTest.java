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
    BaseRobotRules rules = new RobotsPolicy(userAgent, Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(200, TXT));

    assertThat(RobotsPolicy.isAllowedByRobots(rules, url)).isEqualTo(allowed);
  }

  @ParameterizedTest(name = "status {0} -> allow all {1}, allow none {2}")
  @CsvSource({"404, true, false", "401, true, false", "410, true, false", "500, false, true", "503, false, true", "301, false, true"})
  void treatsMissingRobotsAsAllowAllAndAFailingServerAsAllowNone(int status, boolean allowAll, boolean allowNone) {
    BaseRobotRules rules = new RobotsPolicy("bot", Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(status, "whatever"));

    assertThat(rules.isAllowAll()).isEqualTo(allowAll);
    assertThat(rules.isAllowNone()).isEqualTo(allowNone);
  }

  @Test
  void disallowsAllWhenRobotsCannotBeFetchedAndRetriesSooner() {
    RobotsPolicy policy = new RobotsPolicy("bot", Duration.ofMinutes(30));
    BaseRobotRules rules = policy.rulesFrom(ROBOTS, new FetchAttempt.Failure(FetchAttempt.FailureKind.CONNECT_FAILED, "refused", 1));

    assertThat(rules.isAllowNone()).isTrue();
    assertThat(policy.validity(rules)).isEqualTo(RobotsPolicy.RETRY_AFTER_FAILURE);
    assertThat(policy.validity(policy.rulesFrom(ROBOTS, response(200, TXT)))).isEqualTo(Duration.ofMinutes(30));
  }

  @Test
  void readsSitemapsAndCrawlDelay() {
    BaseRobotRules rules = new RobotsPolicy("bot", Duration.ofMinutes(30)).rulesFrom(ROBOTS, response(200, "User-agent: *\nCrawl-delay: 5\nSitemap: http://a.example/s.xml\n"));

    assertThat(rules.getSitemaps()).containsExactly("http://a.example/s.xml");
    assertThat(rules.getCrawlDelay()).isEqualTo(5000);
  }

  @ParameterizedTest
  @CsvSource({"kafka-crawler/0.1, kafka-crawler", "MyBot/1.0 (+http://x), mybot", "Plain, plain", "'  spaced bot', spaced"})
  void takesTheProductTokenOfTheUserAgent(String userAgent, String token) {
    assertThat(RobotsPolicy.productToken(userAgent)).isEqualTo(token);
  }

  private static FetchAttempt.Response response(int status, String body) {
    return new FetchAttempt.Response(status, Map.of(), body.getBytes(StandardCharsets.UTF_8), Optional.of("text/plain"), Optional.empty(), 1);
  }
}
