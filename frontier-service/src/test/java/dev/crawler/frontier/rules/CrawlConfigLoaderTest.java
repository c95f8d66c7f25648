package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
      })
  void namesTheFileLineAndKeyOfWhatIsWrong(String yaml, String message) {
    assertThatThrownBy(() -> CrawlConfigLoader.parse(yaml, "crawl.yaml")).isInstanceOf(CrawlConfigException.class).hasMessageStartingWith(message);
  }

  @org.junit.jupiter.api.Test
  void countsLinesFromTheTop() {
    String yaml = "global:\n  delay-ms: 100\nrules:\n  - apply-for: {host: a}\n    options:\n      max-depth: -2\n";

    assertThatThrownBy(() -> CrawlConfigLoader.parse(yaml, "crawl.yaml")).hasMessage("crawl.yaml:6: rules[0].options.max-depth: -2 is less than -1");
  }
}
