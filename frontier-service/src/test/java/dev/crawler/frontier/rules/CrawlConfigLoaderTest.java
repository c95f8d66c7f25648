package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.frontier.recrawl.RecrawlPolicy;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlConfigLoaderTest {

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "globals: {}                                                   | crawl.yaml:1: globals: unknown key",
        "global: {delay: 5}                                            | crawl.yaml:1: global.delay: unknown option",
        "global: {delay-ms: soon}                                      | crawl.yaml:1: global.delay-ms: 'soon' is not a whole number",
        "global: {delay-ms: 7200000}                                   | crawl.yaml:1: global.delay-ms: 7200000 is more than 3600000",
        "global: {max-connections-per-origin: 17}                      | crawl.yaml:1: global.max-connections-per-origin: 17 is more than 16",
        "global: {default-allow: maybe}                                | crawl.yaml:1: global.default-allow: 'maybe' is not one of allow, disallow, disallow-log",
        "global: {redirects: follow 20}                                | crawl.yaml:1: global.redirects: at most 10 redirects",
        "rules: [{may-not-have: {url-regex: '(unclosed'}}]             | crawl.yaml:1: rules[0].may-not-have.url-regex: bad regular expression",
        "rules: [{apply-for: {host: a}, must-have: {host: b}}]         | crawl.yaml:1: rules[0]: a rule has exactly one of",
        "rules: [{apply-for: {host: a, path-prefix: /x}}]              | crawl.yaml:1: rules[0].apply-for: a condition has exactly one key",
        "rules: [{apply-for: {depth: deep}}]                           | crawl.yaml:1: rules[0].apply-for.depth: a depth comparison",
        "rules: [{apply-for: {path-prefix: x}}]                        | crawl.yaml:1: rules[0].apply-for.path-prefix: a path prefix starts with /",
        "rules: [{apply-for: {host: a}, log: true}]                    | crawl.yaml:1: rules[0].log: log is a flag of may-not-have and must-have rules",
        "sites: [{name: a, seeds: [ftp://x/]}]                         | crawl.yaml:1: sites[0].seeds: 'ftp://x/' is not a crawlable URL",
        "rules: {apply-for: {host: a}}                                 | crawl.yaml:1: rules: expected a list",
        "'global: [unclosed'                                           | crawl.yaml: not valid YAML",
        "sites: [{name: a, options: {recrawl.active: true}}]           | crawl.yaml:1: sites[0].options.recrawl.active: a global option: assign it under global",
        "sites: [{name: a, options: {recrawl.interval: 5}}]            | crawl.yaml:1: sites[0].options.recrawl.interval: a global option",
        "rules: [{apply-for: {host: a}, options: {recrawl.max-count: 2}}] | crawl.yaml:1: rules[0].options.recrawl.max-count: a site option",
        "global: {recrawl.interval: soon}                              | crawl.yaml:1: global.recrawl.interval: 'soon' is not a duration",
        "global: {recrawl.interval: 0s}                                | crawl.yaml:1: global.recrawl.interval: '0s' is not more than zero",
        "global: {recrawl.runs-per-event: 0}                           | crawl.yaml:1: global.recrawl.runs-per-event: 0 is less than 1",
      })
  void namesTheFileLineAndKeyOfWhatIsWrong(String yaml, String message) {
    assertThatThrownBy(() -> CrawlConfigLoader.parse(yaml, "crawl.yaml"))
        .isInstanceOf(CrawlConfigException.class)
        .hasMessageStartingWith(message);
  }

  @ParameterizedTest(name = "{0} is {1} seconds")
  @CsvSource({"5, 300", "30s, 30", "5m, 300", "2h, 7200", "1d, 86400"})
  void readsTheRecrawlIntervalAsMinutesOrADurationWithAUnit(String value, long seconds) {
    CrawlConfig config =
        CrawlConfigLoader.parse("global: {recrawl.interval: " + value + "}", "crawl.yaml");

    org.assertj.core.api.Assertions.assertThat(config.global().get(CrawlOption.RECRAWL_INTERVAL))
        .isEqualTo(Duration.ofSeconds(seconds));
  }

  @org.junit.jupiter.api.Test
  void takesASitesRecrawlPolicyFromTheGlobalOptionsThenTheSites() {
    CrawlConfig config =
        CrawlConfigLoader.parse(
            "global: {recrawl.active: true, recrawl.runs-per-event: 2}\n"
                + "sites:\n"
                + "  - {name: news, seeds: ['http://news.example/'], options: {recrawl.newer-than-minutes: 1440, recrawl.max-count: 5}}\n"
                + "  - {name: archive, seeds: ['http://archive.example/'], options: {recrawl.site-active: false}}\n",
            "crawl.yaml");

    RecrawlPolicy news = RecrawlPolicy.of(config, config.sites().get(0));
    RecrawlPolicy archive = RecrawlPolicy.of(config, config.sites().get(1));
    org.assertj.core.api.Assertions.assertThat(news)
        .isEqualTo(
            new RecrawlPolicy(true, 2, 5, Duration.ZERO, Optional.of(Duration.ofMinutes(1440))));
    org.assertj.core.api.Assertions.assertThat(archive.isActive()).isFalse();
  }

  @org.junit.jupiter.api.Test
  void countsLinesFromTheTop() {
    String yaml =
        "global:\n  delay-ms: 100\nrules:\n  - apply-for: {host: a}\n    options:\n      max-depth: -2\n";

    assertThatThrownBy(() -> CrawlConfigLoader.parse(yaml, "crawl.yaml"))
        .hasMessage("crawl.yaml:6: rules[0].options.max-depth: -2 is less than -1");
  }
}
