package dev.crawler.common.usage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RobotsUsageRulesTest {

  private static final String AGENT = "kafka-crawler";

  /** The example of draft-ietf-aipref-attach-05 section 4.4, and a group of ours. */
  private static final String DRAFT_EXAMPLE =
      """
      User-Agent: *
      Allow: /
      Disallow: /never/
      Content-Usage: train-ai=n
      Content-Usage: /ai-ok/ train-ai=y

      User-Agent: ExampleBot
      Allow: /
      Content-Usage: train-ai=y
      """;

  @ParameterizedTest(name = "{0} {1}: [{2}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // the draft's table: the longest matching path wins; a path not crawlable has nothing
        "kafka-crawler | /test           | ai-training=n genai-training=n",
        "kafka-crawler | /never/test     | ''",
        "kafka-crawler | /ai-ok/test     | ai-training=y genai-training=y",
        "kafka-crawler | /ai-ok          | ai-training=n genai-training=n",
        "examplebot    | /never/test     | ai-training=y genai-training=y",
        "ExampleBot    | /test           | ai-training=y genai-training=y",
      })
  void appliesTheDraftsExample(String agent, String path, String expected) {
    RobotsUsageRules rules = RobotsUsageRules.parse(DRAFT_EXAMPLE.getBytes(UTF_8), agent);

    assertThat(EffectsText.of(rules.findingsFor(path))).isEqualTo(expected);
  }

  @Test
  void keepsEachStatementWithItsPathAndRuleText() {
    RobotsUsageRules rules = RobotsUsageRules.parse(DRAFT_EXAMPLE.getBytes(UTF_8), AGENT);

    UsageStatement scoped = rules.findingsFor("/ai-ok/x").statements().get(0);
    UsageStatement global = rules.findingsFor("/x").statements().get(0);

    assertThat(scoped.source()).isEqualTo(UsageSource.ROBOTS_TXT_CONTENT_USAGE);
    assertThat(scoped.raw()).isEqualTo("/ai-ok/ train-ai=y");
    assertThat(scoped.scope()).isEqualTo("/ai-ok/");
    assertThat(global.raw()).isEqualTo("train-ai=n");
    assertThat(global.scope()).isEqualTo("/");
    RobotsUsageRules ours = RobotsUsageRules.parse(DRAFT_EXAMPLE.getBytes(UTF_8), "examplebot");
    assertThat(ours.findingsFor("/x").statements().get(0).scope()).isEqualTo("/ agent=examplebot");
  }

  @ParameterizedTest(name = "{0}: [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "/                   | search=y",
        "/articles/          | ai-training=n genai-training=n search=y",
        "/articles/a.html    | ai-training=n genai-training=n search=y",
        "/articles/free/x    | ai-training=y genai-training=y",
        "/images/cat.png     | ai-training=n genai-training=n ai-use=n search=n tdm=n",
        "/images/cat.png?v=2 | ai-training=n genai-training=n ai-use=n search=n tdm=n",
        "/imagesx            | search=y",
      })
  void appliesTheLongestMatchingPathOfTwoAndTheGlobalRule(String path, String expected) {
    String robots =
        """
        # a comment
        User-agent: *
        Content-Usage: search=y
        Content-Usage: /articles/ train-ai=n, search=y   # articles
        Content-Usage: /articles/free/ train-ai=y
        content-usage  :   /images/*.png  bots=n
        Disallow: /private/
        Sitemap: https://a.example/sitemap.xml
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(EffectsText.of(rules.findingsFor(path))).isEqualTo(expected);
  }

  @Test
  void combinesRulesOfIdenticalPathsToBeResolvedAsTheVocabularySays() {
    String robots =
        """
        User-agent: *
        Content-Usage: /a/ train-ai=y
        Content-Usage: /a/ train-ai=n
        Content-Usage: train-ai=y
        Content-Usage: / search=n
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(EffectsText.of(rules.findingsFor("/a/x")))
        .isEqualTo("ai-training=y genai-training=y | ai-training=n genai-training=n");
    // a rule without a path is a rule for "/"
    assertThat(EffectsText.of(rules.findingsFor("/b")))
        .isEqualTo("ai-training=y genai-training=y | search=n");
    assertThat(
            UsagePreferences.combine(rules.findingsFor("/a/x"))
                .preferenceFor(UseCategory.AI_TRAINING))
        .isEqualTo(Preference.STATED_DISALLOWED);
  }

  @ParameterizedTest(name = "{0}: [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "/                | ai-training=n genai-training=n ai-use=y search=y",
        "/docs/page       | ai-training=y genai-training=y ai-use=y search=y",
        "/private/x       | ''",
      })
  void readsContentSignalInTheGroupScopedToAPathOrNot(String path, String expected) {
    String robots =
        """
        User-Agent: *
        Content-Signal: search=yes, ai-input=yes, ai-train=no
        Content-Signal: /docs/ search=yes, ai-input=yes, ai-train=yes
        Allow: /
        Disallow: /private/
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(EffectsText.of(rules.findingsFor(path))).isEqualTo(expected);
    if (!expected.isEmpty()) {
      assertThat(rules.findingsFor(path).statements())
          .allMatch(s -> s.source() == UsageSource.ROBOTS_TXT_CONTENT_SIGNAL);
    }
  }

  @Test
  void matchesContentUsageAndContentSignalEachOnItsOwn() {
    String robots =
        """
        User-agent: *
        Content-Signal: ai-train=no
        Content-Usage: /blog/ search=y
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(rules.findingsFor("/blog/x").statements())
        .extracting(UsageStatement::source)
        .containsExactly(
            UsageSource.ROBOTS_TXT_CONTENT_USAGE, UsageSource.ROBOTS_TXT_CONTENT_SIGNAL);
  }

  @ParameterizedTest(name = "{0}: [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // our group replaces *'s, its rules and usage alike
        "kafka-crawler   | search=y",
        "KAFKA-CRAWLER   | search=y",
        "otherbot        | ai-training=n genai-training=n",
        // a group naming two agents, one of them ours, is ours
        "third-bot       | ai-use=n",
      })
  void usesTheGroupOfTheCrawlerElseTheWildcardGroup(String agent, String expected) {
    String robots =
        """
        User-agent: *
        Content-Signal: ai-train=no

        User-agent: kafka-crawler/2.1
        Content-Usage: search=y

        User-agent: someone-else
        User-agent: third-bot
        Content-Usage: ai-use=n
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), agent);

    assertThat(EffectsText.of(rules.findingsFor("/page"))).isEqualTo(expected);
  }

  @Test
  void aGroupOfOursWithoutUsageRulesStatesNothingEvenIfTheWildcardGroupDoes() {
    String robots =
        """
        User-agent: *
        Content-Usage: train-ai=n

        User-agent: kafka-crawler
        Disallow: /private/
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(rules.findingsFor("/page").isEmpty()).isTrue();
  }

  @Test
  void ignoresAndReportsUsageLinesOutsideAnyGroup() {
    String robots =
        """
        Content-Usage: train-ai=n
        Content-Signal: ai-train=no

        User-agent: *
        Allow: /
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    UsageFindings findings = rules.findingsFor("/page");
    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .extracting(UsageProblem::message)
        .containsExactly(
            "2 Content-Usage or Content-Signal lines before any user-agent line ignored");
  }

  @Test
  void aMalformedRuleAtTheLongestMatchStatesNothingAndIsReported() {
    String robots =
        """
        User-agent: *
        Content-Usage: train-ai=n
        Content-Usage: /a/ Train-AI=y
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    UsageFindings atA = rules.findingsFor("/a/page");
    assertThat(atA.statements()).isEmpty();
    assertThat(atA.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.source()).isEqualTo(UsageSource.ROBOTS_TXT_CONTENT_USAGE);
              assertThat(problem.message())
                  .startsWith("not a structured field dictionary")
                  .endsWith("\"Train-AI=y\"");
            });
    assertThat(EffectsText.of(rules.findingsFor("/b"))).isEqualTo("ai-training=n genai-training=n");
  }

  @Test
  void readsTheFirst500KibAndReportsTheRest() {
    StringBuilder robots = new StringBuilder("User-agent: *\nContent-Usage: train-ai=n\n");
    while (robots.length() < RobotsUsageRules.MAX_ROBOTS_BYTES) {
      robots.append("Disallow: /private/some/long/path/to/fill/the/file\n");
    }
    robots.append("Content-Usage: /late/ train-ai=y\n");
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.toString().getBytes(UTF_8), AGENT);

    UsageFindings findings = rules.findingsFor("/late/x");
    assertThat(EffectsText.of(findings)).isEqualTo("ai-training=n genai-training=n");
    assertThat(findings.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("read to its last line within 512000"));
  }

  @Test
  void keepsAtMostTheLimitOfRulesOfEachKind() {
    StringBuilder robots = new StringBuilder("User-agent: *\n");
    for (int i = 0; i < RobotsUsageRules.MAX_USAGE_RULES + 5; i++) {
      robots.append("Content-Usage: /p").append(i).append("/ train-ai=n\n");
    }
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.toString().getBytes(UTF_8), AGENT);

    assertThat(rules.problems())
        .extracting(UsageProblem::message)
        .containsExactly(
            "5 Content-Usage or Content-Signal rules past the first 1000 of their kind ignored");
    assertThat(rules.findingsFor("/p999/x").statements()).hasSize(1);
    assertThat(rules.findingsFor("/p1000/x").statements()).isEmpty();
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "''",
        "'User-agent: *\nDisallow: /'",
        "'\u00ff\u00fe garbage \u0000 without lines'",
        "'User-agent: *\nContent-Usage:\n'",
      })
  void aFileWithoutUsageRulesStatesNothing(String robots) {
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(EffectsText.of(rules.findingsFor("/x"))).isEmpty();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/                  | true",
        "/private/x         | false",
        "/private/public/x  | true",
        "/page.php          | false",
        "/robots.txt        | true",
        // an Allow and a Disallow of the same length: allow
        "/tie/x             | true",
      })
  void tellsWhetherAPathCanBeCrawled(String path, boolean crawlable) {
    String robots =
        """
        User-agent: *
        Disallow: /private/
        Allow: /private/public/
        Disallow: /*.php$
        Disallow: /robots
        Allow: /tie/
        Disallow: /tie/
        Content-Usage: train-ai=n
        """;
    RobotsUsageRules rules = RobotsUsageRules.parse(robots.getBytes(UTF_8), AGENT);

    assertThat(rules.isCrawlable(path)).isEqualTo(crawlable);
    assertThat(rules.findingsFor(path).statements().isEmpty()).isEqualTo(!crawlable);
  }

  @Test
  void noneStatesNothingForAnyPath() {
    assertThat(RobotsUsageRules.NONE.findingsFor("/x").isEmpty()).isTrue();
    assertThat(RobotsUsageRules.NONE.isCrawlable("/x")).isTrue();
  }
}
