package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.Outcome;
import dev.crawler.frontier.rules.Resolution.Disposition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 004's recursive conditions, seed 001's link rules and seed 003's policies, case by case. */
class RuleEngineTest {

  private static final ScopeCheck ANY_SEED = ScopeCheck.ANY.withSeedOrigins(origin -> true);

  // --- seed 004 ---

  @Test
  void withNoRulesDefaultAllowDisallowDropsTheUrlWithoutARecord() {
    Resolution resolution = resolve("global: {default-allow: disallow}", "http://a.example/x");

    assertThat(resolution.disposition()).isEqualTo(Disposition.DISALLOWED);
    assertThat(resolution.isLogged()).isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"http://a.example/x, CRAWL", "http://b.example/x, DISALLOWED"})
  void anApplyForHostRuleSettingAllowLetsThatHostCrawlAndNothingElse(
      String url, Disposition disposition) {
    String yaml =
        """
        global: {default-allow: disallow}
        rules:
          - apply-for: {host: a.example}
            options: {default-allow: allow}
        """;

    assertThat(resolve(yaml, url).disposition()).isEqualTo(disposition);
  }

  @Test
  void childrenOfARuleThatDoesNotApplyAreNeverEvaluated() {
    String yaml =
        """
        rules:
          - apply-for: {host: b.example}
            rules:
              - may-not-have: {path-prefix: /}
                log: true
        """;

    Resolution resolution = resolve(yaml, "http://a.example/x");

    assertThat(resolution.disposition()).isEqualTo(Disposition.CRAWL);
    assertThat(resolution.skipped()).containsExactly("rules[0]");
  }

  @ParameterizedTest(name = "{0} -> delay {1}")
  @CsvSource({"http://a.example/news/1, 5000", "http://a.example/archive/1, 1000"})
  void applyExceptForAssignsOptionsToUrlsThatDoNotMatch(String url, long delay) {
    String yaml =
        """
        rules:
          - apply-except-for: {path-prefix: /archive/}
            options: {delay-ms: 5000}
        """;

    assertThat(resolve(yaml, url).get(CrawlOption.DELAY_MS)).isEqualTo(delay);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"http://a.example/a.pdf, FILTERED", "http://a.example/a.html, CRAWL"})
  void mayNotHaveFiltersAMatch(String url, Disposition disposition) {
    assertThat(resolve("rules: [{may-not-have: {path-regex: '\\.pdf$'}}]", url).disposition())
        .isEqualTo(disposition);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"http://a.example/blog/x, FILTERED", "http://a.example/docs/x, CRAWL"})
  void mustHaveFiltersANonMatch(String url, Disposition disposition) {
    assertThat(resolve("rules: [{must-have: {path-prefix: /docs/}}]", url).disposition())
        .isEqualTo(disposition);
  }

  @ParameterizedTest(name = "log {0} -> logged {1}")
  @CsvSource({"true, true", "false, false"})
  void aFilteredUrlIsLoggedOnlyWhenAFilteringRuleHasTheLogFlag(boolean log, boolean logged) {
    Resolution resolution =
        resolve(
            "rules: [{may-not-have: {path-prefix: /x}, log: " + log + "}]", "http://a.example/x");

    assertThat(resolution.disposition()).isEqualTo(Disposition.FILTERED);
    assertThat(resolution.isLogged()).isEqualTo(logged);
    if (logged) {
      assertThat(resolution.outcome())
          .hasValueSatisfying(o -> assertThat(o.name()).isEqualTo("FILTERED"));
      assertThat(resolution.detail()).contains("RULE rules[0]");
    }
  }

  @Test
  void filteringIsAbsoluteEvenWhenAllowIsAssignedLater() {
    String yaml =
        """
        rules:
          - may-not-have: {path-prefix: /private/}
            log: true
          - apply-for: {path-prefix: /}
            options: {default-allow: allow}
        """;

    assertThat(resolve(yaml, "http://a.example/private/x").disposition())
        .isEqualTo(Disposition.FILTERED);
  }

  @Test
  void theLastAssignmentWinsAllowThenDisallow() {
    String yaml =
        """
        rules:
          - apply-for: {host: a.example}
            options: {default-allow: allow}
          - apply-for: {path-prefix: /old/}
            name: old-stuff
            options: {default-allow: disallow-log}
        """;

    Resolution resolution = resolve(yaml, "http://a.example/old/1");

    assertThat(resolution.disposition()).isEqualTo(Disposition.DISALLOWED);
    assertThat(resolution.isLogged()).isTrue();
    assertThat(resolution.options().get(CrawlOption.DEFAULT_ALLOW).setBy())
        .isEqualTo("rule:old-stuff");
  }

  @Test
  void explainsWhoSetEachOption() {
    String yaml =
        """
        global: {delay-ms: 2000, max-depth: 4}
        sites:
          - name: a
            seeds: [http://a.example/]
            options: {delay-ms: 500}
        rules:
          - apply-for: {all: [{host: '*.example'}, {depth: '>= 1'}]}
            options: {max-depth: 2}
        """;

    Resolution resolution = resolve(yaml, "http://a.example/x", 1);

    assertThat(resolution.options().get(CrawlOption.DELAY_MS))
        .isEqualTo(new Resolution.Setting(500L, "site:a"));
    assertThat(resolution.options().get(CrawlOption.MAX_DEPTH))
        .isEqualTo(new Resolution.Setting(2, "rule:rules[0]"));
    assertThat(resolution.options().get(CrawlOption.SCOPE).setBy()).isEqualTo("default");
  }

  // --- seed 001 ---

  @ParameterizedTest(name = "{0} characters -> {1}")
  @CsvSource({"128, CRAWL", "129, FILTERED"})
  void theMaximumUrlLengthAcceptsTheLimitAndRejectsOneMore(int length, Disposition disposition) {
    String prefix = "http://a.example/";
    String url = prefix + "x".repeat(length - prefix.length());

    Resolution resolution = resolve("global: {max-url-length: 128}", url);

    assertThat(resolution.disposition()).isEqualTo(disposition);
    if (disposition == Disposition.FILTERED) {
      assertThat(resolution.detail().orElseThrow()).startsWith("URL_TOO_LONG");
    }
  }

  @Test
  void withoutFollowQueryStringsAUrlWithAQueryIsRejected() {
    Resolution resolution =
        resolve("global: {follow-query-strings: false}", "http://a.example/file.pl?test");

    assertThat(resolution.detail()).contains("QUERY_NOT_ALLOWED");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/img/LOGO.GIF,       IGNORED_EXTENSION gif",
    "http://a.example/doc.pdf?x=1,        ",
    "http://a.example/get?f=report.pdf,   IGNORED_EXTENSION pdf",
    "http://a.example/get?f=Report.PDF,   IGNORED_EXTENSION pdf",
    "http://a.example/get?format=pdf,     ",
    "http://a.example/doc.pdfx,           ",
    "http://a.example/server.log,         ",
  })
  void ignoresLinksToTheListedExtensionsAtTheEndOfTheAddress(String url, String detail) {
    Resolution resolution = resolve("", url);

    assertThat(resolution.detail().orElse(null)).isEqualTo(detail);
  }

  @Test
  void addingLogAndOldToTheListRejectsLogFiles() {
    Resolution resolution =
        resolve("global: {ignore-extensions: 'gif|jpg|log|old'}", "http://a.example/server.log");

    assertThat(resolution.detail()).contains("IGNORED_EXTENSION log");
  }

  @ParameterizedTest(name = "{1} with scope {0} -> {2}")
  @CsvSource({
    "origin,    http://example.org/x,               CRAWL",
    "origin,    https://example.org/x,              FILTERED",
    "host,      https://example.org/x,              CRAWL",
    "host,      http://example.com/x,               FILTERED",
    "domain,    http://www.example.org/x,           CRAWL",
    "directory, http://example.org/docs/sub/x.html, CRAWL",
    "directory, http://example.org/docs/,           CRAWL",
    "directory, http://example.org/blog/x,          FILTERED",
    "any,       http://z.example/x,               CRAWL",
  })
  void keepsTheCrawlWithinItsScope(String scope, String url, Disposition disposition) {
    String yaml = "global: {scope: " + scope + "}";
    Resolution resolution =
        new RuleEngine(CrawlConfigLoader.parse(yaml, "test.yaml"))
            .resolve(url, 1, ScopeCheck.ofSeeds(List.of("http://example.org/docs/index.html")));

    assertThat(resolution.disposition()).isEqualTo(disposition);
    if (disposition == Disposition.FILTERED) {
      assertThat(resolution.outcome().orElseThrow().name()).isEqualTo("OUT_OF_SCOPE");
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "ftp://a.example/file, UNSUPPORTED_SCHEME ftp",
    "mailto:x@a.example, UNSUPPORTED_SCHEME mailto",
    "http://exa mple.org/, MALFORMED_URL"
  })
  void crawlsOnlyHttpAndHttps(String url, String detail) {
    assertThat(resolve("", url).detail().orElseThrow()).isEqualTo(detail);
  }

  // --- seed 002 ---

  @ParameterizedTest(name = "depth {0} -> {1}")
  @CsvSource({"2, CRAWL", "3, FILTERED"})
  void rejectsUrlsBeyondTheMaximumDepth(int depth, Disposition disposition) {
    Resolution resolution = resolve("global: {max-depth: 2}", "http://a.example/x", depth);

    assertThat(resolution.disposition()).isEqualTo(disposition);
    if (disposition == Disposition.FILTERED) {
      assertThat(resolution.outcome().orElseThrow().name()).isEqualTo("TOO_DEEP");
    }
  }

  // --- seed 003 ---

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "https://example.org/x, CRAWL",
    "https://example.com/x, FILTERED",
    "http://example.org/, FILTERED"
  })
  void theSeedsOriginsAreTheCrawl(String url, Disposition disposition) {
    Resolution resolution =
        new RuleEngine(CrawlConfig.DEFAULTS)
            .resolve(url, 1, ScopeCheck.ofSeeds(List.of("https://example.org/")));

    assertThat(resolution.disposition()).isEqualTo(disposition);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/search?page=2,         ",
    "http://a.example/search?page=2&sort=up, LOCAL_POLICY policies.url-query-parameters",
    "http://a.example/search,                ",
    "http://a.example/other?sort=up,         LOCAL_POLICY policies.url-query-parameters",
    "http://a.example/other,                 ",
    "http://a.example/tmp/x,                 LOCAL_POLICY policies.do-not-crawl[0]",
  })
  void policiesAreRules(String url, String detail) {
    String yaml =
        """
        policies:
          do-not-crawl: ['/tmp/']
          url-query-parameters:
            - path-prefix: /search
              allowed: [page]
        """;

    assertThat(resolve(yaml, url).detail().orElse(null)).isEqualTo(detail);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/search?q=x&page=2,  CRAWL",
    "http://a.example/search?q=x,         CRAWL",
    "http://a.example/list?page=2,        CRAWL",
    "http://a.example/list?q=x,           FILTERED",
    "http://a.example/search?q=x&sort=up, FILTERED",
    "http://a.example/feed/?anything=1,   CRAWL",
  })
  void aQueryIsAllowedWhenAnyApplicablePolicyAllowsItsParameters(
      String url, Disposition disposition) {
    String yaml =
        """
        policies:
          url-query-parameters:
            - path-prefix: /
              allowed: [page]
            - path-prefix: /search
              allowed: [q, page]
            - path-prefix: /feed/
              allowed: '*'
        """;

    assertThat(resolve(yaml, url).disposition()).isEqualTo(disposition);
  }

  @ParameterizedTest(name = "schemes {0}: {1} -> {2}")
  @CsvSource({
    "'[http]',        http://a.example/x,  ",
    "'[http]',        https://a.example/x, UNSUPPORTED_SCHEME https",
    "'[https]',       http://a.example/x,  UNSUPPORTED_SCHEME http",
    "'[http, https]', https://a.example/x, ",
  })
  void followsOnlyTheConfiguredSchemes(String schemes, String url, String detail) {
    Resolution resolution = resolve("global: {schemes: " + schemes + "}", url);

    assertThat(resolution.detail().orElse(null)).isEqualTo(detail);
    if (detail != null) {
      assertThat(resolution.rule()).contains("schemes set by global");
    }
  }

  @Test
  void aSchemeTheCrawlerCannotFetchIsABadConfiguration() {
    assertThatThrownBy(() -> CrawlConfigLoader.parse("global: {schemes: [ftp]}", "test.yaml"))
        .isInstanceOf(CrawlConfigException.class)
        .hasMessageContaining("global.schemes")
        .hasMessageContaining("'ftp' is not fetched by this crawler");
  }

  // --- URL traps ---

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/a/a/,                 ",
    "http://a.example/a/a/a/,               TRAP_REPEATED_SEGMENT 'a' 3 times in a row > 2",
    "http://a.example/a/a/a/a/a/b.html,     TRAP_REPEATED_SEGMENT 'a' 5 times in a row > 2",
    "http://a.example/x/y/x/y/,             ",
    "http://a.example/x/y/x/y/x/y/z,        TRAP_REPEATED_SEGMENT 'x/y' 3 times in a row > 2",
    "http://a.example/en/docs/en/docs/en/x, ",
    "http://a.example/en/docs/en/blog/en/x, ",
    "http://a.example/2024/2024/,           ",
  })
  void rejectsAPathThatRepeatsASegmentOrARunMoreThanTwiceInARow(String url, String detail) {
    Resolution resolution = resolve("", url);

    assertThat(resolution.detail().orElse(null)).isEqualTo(detail);
    if (detail != null) {
      assertThat(resolution.outcome()).contains(Outcome.FILTERED);
      assertThat(resolution.rule()).contains("max-repeated-segments set by default");
    }
  }

  @ParameterizedTest(name = "{0} segments with max {1} -> {2}")
  @CsvSource({
    "20, 20, ",
    "21, 20, TRAP_TOO_MANY_SEGMENTS 21 > 20",
    "21, -1, ",
    "4, 3, TRAP_TOO_MANY_SEGMENTS 4 > 3"
  })
  void rejectsAPathWithMoreSegmentsThanTheMaximum(int segments, int max, String detail) {
    StringBuilder url = new StringBuilder("http://a.example");
    for (int i = 0; i < segments; i++) {
      url.append("/s").append(i);
    }

    assertThat(
            resolve("global: {max-path-segments: " + max + "}", url.toString())
                .detail()
                .orElse(null))
        .isEqualTo(detail);
  }

  @ParameterizedTest(name = "{0} parameters -> {1}")
  @CsvSource({"10, ", "11, TRAP_TOO_MANY_PARAMETERS 11 > 10"})
  void rejectsAQueryWithMoreParametersThanTheMaximum(int parameters, String detail) {
    StringBuilder url = new StringBuilder("http://a.example/find?");
    for (int i = 0; i < parameters; i++) {
      url.append(i == 0 ? "" : "&").append("p").append(i).append("=1");
    }

    assertThat(resolve("", url.toString()).detail().orElse(null)).isEqualTo(detail);
  }

  @ParameterizedTest(name = "{0} hops -> {1}")
  @CsvSource({"0, CRAWL", "5, CRAWL", "6, FILTERED"})
  void rejectsAUrlFoundMoreThanTheMaximumCalendarHopsInARow(int hops, Disposition disposition) {
    Resolution resolution =
        new RuleEngine(CrawlConfig.DEFAULTS)
            .resolve("http://a.example/cal/2026-11-23", 3, ANY_SEED, false, hops);

    assertThat(resolution.disposition()).isEqualTo(disposition);
    if (disposition == Disposition.FILTERED) {
      assertThat(resolution.detail())
          .contains("TRAP_CALENDAR 6 links in a row within http://a.example/cal/#-#-# > 5");
    }
  }

  @Test
  void trapRulesAreOptionsThatARuleCanTurnOffForOneSite() {
    String yaml =
        """
        rules:
          - apply-for: {host: deep.example}
            options: {max-repeated-segments: -1, max-path-segments: -1}
        """;

    assertThat(resolve(yaml, "http://deep.example/a/a/a/a/").isCrawled()).isTrue();
    assertThat(resolve(yaml, "http://other.example/a/a/a/a/").isCrawled()).isFalse();
  }

  @org.junit.jupiter.api.Test
  void readsASitemapWhateverItsExtensionButKeepsTheOtherRules() {
    RuleEngine engine =
        new RuleEngine(CrawlConfigLoader.parse("global: {max-depth: 1}", "test.yaml"));
    ScopeCheck seeds = ScopeCheck.ofSeeds(List.of("http://example.org/"));

    assertThat(engine.resolve("http://example.org/sitemap.xml.gz", 0, seeds).isCrawled())
        .as("a link to a .gz")
        .isFalse();
    assertThat(engine.resolve("http://example.org/sitemap.xml.gz", 0, seeds, true).isCrawled())
        .as("a sitemap")
        .isTrue();
    assertThat(engine.resolve("http://other.example/sitemap.xml.gz", 0, seeds, true).outcome())
        .contains(Outcome.OUT_OF_SCOPE);
    assertThat(engine.resolve("http://example.org/deep/sitemap.gz", 2, seeds, true).outcome())
        .contains(Outcome.TOO_DEEP);
  }

  @org.junit.jupiter.api.Test
  void saysWhetherAnyPartOfTheConfigurationAssignsAnOption() {
    CrawlConfig nested =
        CrawlConfigLoader.parse(
            "rules:\n  - apply-for: {host: example.org}\n    rules:\n      - apply-for: {path-prefix: /news/}\n        options: {recrawl.interval-per-url: 60}\n",
            "test.yaml");

    assertThat(CrawlConfig.DEFAULTS.assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL)).isFalse();
    assertThat(
            CrawlConfig.DEFAULTS
                .withGlobal(Map.of(CrawlOption.RECRAWL_INTERVAL_PER_URL, 5))
                .assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL))
        .isTrue();
    assertThat(nested.assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL)).isTrue();
    assertThat(nested.assigns(CrawlOption.DELAY_MS)).isFalse();
  }

  private static Resolution resolve(String yaml, String url) {
    return resolve(yaml, url, 1);
  }

  private static Resolution resolve(String yaml, String url, int depth) {
    return new RuleEngine(CrawlConfigLoader.parse(yaml, "test.yaml")).resolve(url, depth, ANY_SEED);
  }
}
