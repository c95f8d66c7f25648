package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.frontier.rules.Resolution.Disposition;
import java.util.List;
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
  void anApplyForHostRuleSettingAllowLetsThatHostCrawlAndNothingElse(String url, Disposition disposition) {
    String yaml = """
        global: {default-allow: disallow}
        rules:
          - apply-for: {host: a.example}
            options: {default-allow: allow}
        """;

    assertThat(resolve(yaml, url).disposition()).isEqualTo(disposition);
  }

  @Test
  void childrenOfARuleThatDoesNotApplyAreNeverEvaluated() {
    String yaml = """
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
    String yaml = """
        rules:
          - apply-except-for: {path-prefix: /archive/}
            options: {delay-ms: 5000}
        """;

    assertThat(resolve(yaml, url).get(CrawlOption.DELAY_MS)).isEqualTo(delay);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"http://a.example/a.pdf, FILTERED", "http://a.example/a.html, CRAWL"})
  void mayNotHaveFiltersAMatch(String url, Disposition disposition) {
    assertThat(resolve("rules: [{may-not-have: {path-regex: '\\.pdf$'}}]", url).disposition()).isEqualTo(disposition);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"http://a.example/blog/x, FILTERED", "http://a.example/docs/x, CRAWL"})
  void mustHaveFiltersANonMatch(String url, Disposition disposition) {
    assertThat(resolve("rules: [{must-have: {path-prefix: /docs/}}]", url).disposition()).isEqualTo(disposition);
  }

  @ParameterizedTest(name = "log {0} -> logged {1}")
  @CsvSource({"true, true", "false, false"})
  void aFilteredUrlIsLoggedOnlyWhenAFilteringRuleHasTheLogFlag(boolean log, boolean logged) {
    Resolution resolution = resolve("rules: [{may-not-have: {path-prefix: /x}, log: " + log + "}]", "http://a.example/x");

    assertThat(resolution.disposition()).isEqualTo(Disposition.FILTERED);
    assertThat(resolution.isLogged()).isEqualTo(logged);
    if (logged) {
      assertThat(resolution.outcome()).hasValueSatisfying(o -> assertThat(o.name()).isEqualTo("FILTERED"));
      assertThat(resolution.detail()).contains("RULE rules[0]");
    }
  }

  @Test
  void filteringIsAbsoluteEvenWhenAllowIsAssignedLater() {
    String yaml = """
        rules:
          - may-not-have: {path-prefix: /private/}
            log: true
          - apply-for: {path-prefix: /}
            options: {default-allow: allow}
        """;

    assertThat(resolve(yaml, "http://a.example/private/x").disposition()).isEqualTo(Disposition.FILTERED);
  }

  @Test
  void theLastAssignmentWinsAllowThenDisallow() {
    String yaml = """
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
    assertThat(resolution.options().get(CrawlOption.DEFAULT_ALLOW).setBy()).isEqualTo("rule:old-stuff");
  }

  @Test
  void explainsWhoSetEachOption() {
    String yaml = """
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

    assertThat(resolution.options().get(CrawlOption.DELAY_MS)).isEqualTo(new Resolution.Setting(500L, "site:a"));
    assertThat(resolution.options().get(CrawlOption.MAX_DEPTH)).isEqualTo(new Resolution.Setting(2, "rule:rules[0]"));
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
    Resolution resolution = resolve("global: {follow-query-strings: false}", "http://a.example/file.pl?test");

    assertThat(resolution.detail()).contains("QUERY_NOT_ALLOWED");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/img/LOGO.GIF, IGNORED_EXTENSION gif",
    "http://a.example/doc.pdf?x=1,  ",
    "http://a.example/doc.pdfx,     ",
    "http://a.example/server.log,   ",
  })
  void ignoresLinksToTheListedExtensionsAtTheEndOfTheAddress(String url, String detail) {
    Resolution resolution = resolve("", url);

    assertThat(resolution.detail().orElse(null)).isEqualTo(detail);
  }

  @Test
  void addingLogAndOldToTheListRejectsLogFiles() {
    Resolution resolution = resolve("global: {ignore-extensions: 'gif|jpg|log|old'}", "http://a.example/server.log");

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
    Resolution resolution = new RuleEngine(CrawlConfigLoader.parse(yaml, "test.yaml")).resolve(url, 1, ScopeCheck.ofSeeds(List.of("http://example.org/docs/index.html")));

    assertThat(resolution.disposition()).isEqualTo(disposition);
    if (disposition == Disposition.FILTERED) {
      assertThat(resolution.outcome().orElseThrow().name()).isEqualTo("OUT_OF_SCOPE");
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"ftp://a.example/file, UNSUPPORTED_SCHEME ftp", "mailto:x@a.example, UNSUPPORTED_SCHEME mailto", "http://exa mple.org/, MALFORMED_URL"})
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
  @CsvSource({"https://example.org/x, CRAWL", "https://example.com/x, FILTERED", "http://example.org/, FILTERED"})
  void theSeedsOriginsAreTheCrawl(String url, Disposition disposition) {
    Resolution resolution = new RuleEngine(CrawlConfig.DEFAULTS).resolve(url, 1, ScopeCheck.ofSeeds(List.of("https://example.org/")));

    assertThat(resolution.disposition()).isEqualTo(disposition);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/search?page=2,         ",
    "http://a.example/search?page=2&sort=up, LOCAL_POLICY policies.url-query-parameters[0]",
    "http://a.example/search,                ",
    "http://a.example/other?sort=up,         ",
    "http://a.example/tmp/x,                 LOCAL_POLICY policies.do-not-crawl[0]",
  })
  void policiesAreRules(String url, String detail) {
    String yaml = """
        policies:
          do-not-crawl: ['/tmp/']
          url-query-parameters:
            - path-prefix: /search
              allowed: [page]
        """;

    assertThat(resolve(yaml, url).detail().orElse(null)).isEqualTo(detail);
  }

  @org.junit.jupiter.api.Test
  void readsASitemapWhateverItsExtensionButKeepsTheOtherRules() {
    RuleEngine engine = new RuleEngine(CrawlConfigLoader.parse("global: {max-depth: 1}", "test.yaml"));
    ScopeCheck seeds = ScopeCheck.ofSeeds(List.of("http://example.org/"));

    assertThat(engine.resolve("http://example.org/sitemap.xml.gz", 0, seeds).isCrawled()).as("a link to a .gz").isFalse();
    assertThat(engine.resolve("http://example.org/sitemap.xml.gz", 0, seeds, true).isCrawled()).as("a sitemap").isTrue();
    assertThat(engine.resolve("http://other.example/sitemap.xml.gz", 0, seeds, true).outcome()).contains(dev.crawler.events.Outcome.OUT_OF_SCOPE);
    assertThat(engine.resolve("http://example.org/deep/sitemap.gz", 2, seeds, true).outcome()).contains(dev.crawler.events.Outcome.TOO_DEEP);
  }

  @org.junit.jupiter.api.Test
  void saysWhetherAnyPartOfTheConfigurationAssignsAnOption() {
    CrawlConfig nested = CrawlConfigLoader.parse("rules:\n  - apply-for: {host: example.org}\n    rules:\n      - apply-for: {path-prefix: /news/}\n        options: {recrawl.interval-per-url: 60}\n", "test.yaml");

    assertThat(CrawlConfig.DEFAULTS.assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL)).isFalse();
    assertThat(CrawlConfig.DEFAULTS.withGlobal(java.util.Map.of(CrawlOption.RECRAWL_INTERVAL_PER_URL, 5)).assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL)).isTrue();
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
