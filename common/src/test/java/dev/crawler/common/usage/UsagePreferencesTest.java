package dev.crawler.common.usage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsagePreferencesTest {

  private static final String AGENT = "kafka-crawler";

  @Test
  void aDocumentWithNoStatementHasEveryCategoryNotStated() {
    UsagePreferences preferences =
        UsagePreferences.combine(
            RobotsUsageRules.parse("User-agent: *\nDisallow: /x\n".getBytes(UTF_8), AGENT)
                .findingsFor("/page"),
            UsageHeaders.read(Map.of("content-type", "text/html"), AGENT),
            UsageMeta.read(List.of(new MetaTag("description", "d")), AGENT),
            TdmRepFile.NONE.findingsFor("/page"));

    assertThat(preferences.summary()).containsOnlyKeys(UseCategory.values());
    assertThat(preferences.summary().values()).containsOnly(Preference.NOT_STATED);
    assertThat(preferences.statements()).isEmpty();
    assertThat(preferences.problems()).isEmpty();
    assertThat(preferences.tdmPolicy()).isEmpty();
    assertThat(preferences).isEqualTo(UsagePreferences.NONE);
  }

  @ParameterizedTest(name = "[{0}] and [{1}] -> [{2}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // robots.txt Content-Usage | Content-Usage header   | summary
        "train-ai=y                 | train-ai=n             | ai-training=n genai-training=n",
        "train-ai=n                 | train-ai=y             | ai-training=n genai-training=n",
        "train-ai=y                 | search=y               | ai-training=y genai-training=y search=y",
        "search=n                   | search=y               | search=n",
        "train-ai=y                 | x=y                    | ai-training=y genai-training=y",
      })
  void theMostRestrictiveStatementWinsAcrossSources(String robots, String header, String expected) {
    UsagePreferences preferences =
        UsagePreferences.combine(
            ContentUsage.read(robots, UsageSource.ROBOTS_TXT_CONTENT_USAGE, "/"),
            UsageHeaders.read(Map.of("content-usage", header), AGENT));

    assertThat(EffectsText.of(preferences.summary())).isEqualTo(expected);
  }

  @ParameterizedTest(name = "file {0}, header {1}, meta {2} -> tdm {3}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // tdmrep.json | header | meta | TDM in force | superseded sources
        "1             | ''     | ''   | n            | ''",
        "1             | 0      | ''   | y            | TDMREP_FILE",
        "0             | 1      | ''   | n            | TDMREP_FILE",
        "1             | 1      | 0    | y            | TDMREP_FILE TDMREP_HEADER",
        "''            | 1      | 0    | y            | TDMREP_HEADER",
        "0             | ''     | 1    | n            | TDMREP_FILE",
        // a technique that states no (valid) reservation does not reset the earlier value
        "1             | yes    | ''   | n            | ''",
        "''            | ''     | ''   | ''           | ''",
      })
  void tdmRepTechniquesSupersedeOneAnotherInTheProtocolsOrder(
      String file, String header, String meta, String tdm, String superseded) {
    UsagePreferences preferences = tdmRep(file, header, meta, "");

    String expected =
        tdm.isEmpty() ? "" : "ai-training=" + tdm + " genai-training=" + tdm + " tdm=" + tdm;
    assertThat(EffectsText.of(preferences.summary())).isEqualTo(expected);
    assertThat(
            String.join(
                " ",
                preferences.statements().stream()
                    .filter(UsageStatement::superseded)
                    .map(s -> s.source().name())
                    .toList()))
        .isEqualTo(superseded);
  }

  @Test
  void tdmRepInForceIsCombinedWithTheOtherProtocolsMostRestrictively() {
    UsagePreferences preferences =
        UsagePreferences.combine(
            tdmRepFindings("1", "", "0", ""),
            ContentUsage.read("train-ai=n", UsageSource.ROBOTS_TXT_CONTENT_USAGE, "/"));

    assertThat(preferences.preferenceFor(UseCategory.TDM)).isEqualTo(Preference.STATED_ALLOWED);
    assertThat(preferences.preferenceFor(UseCategory.AI_TRAINING))
        .isEqualTo(Preference.STATED_DISALLOWED);
    assertThat(preferences.disallowingStatement(UseCategory.AI_TRAINING).orElseThrow().source())
        .isEqualTo(UsageSource.ROBOTS_TXT_CONTENT_USAGE);
  }

  @ParameterizedTest(name = "file {0}, header {1}, meta {2}, policy {3} -> {4}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "1  | '' | '' | header=https://h.example/p | https://h.example/p",
        "1  | '' | '' | meta=https://m.example/p   | https://m.example/p",
        "'' | 1  | '' | ''                         | ''",
        // TDMRep: a policy is not processed when the reservation in force is 0
        "'' | 0  | '' | header=https://h.example/p | ''",
      })
  void keepsThePolicyOfTheLatestTechniqueThatStatesOne(
      String file, String header, String meta, String policy, String expected) {
    UsagePreferences preferences = tdmRep(file, header, meta, policy);

    assertThat(preferences.tdmPolicy().orElse("")).isEqualTo(expected);
  }

  @Test
  void keepsEveryStatementWithItsSourceAndEveryProblem() {
    UsagePreferences preferences =
        UsagePreferences.combine(
            RobotsUsageRules.parse(
                    "User-agent: *\nContent-Signal: ai-train=no\n".getBytes(UTF_8), AGENT)
                .findingsFor("/"),
            UsageHeaders.read(
                Map.of("content-usage", "Train-AI=n", "x-robots-tag", "noimageai"), AGENT),
            UsageMeta.read(List.of(new MetaTag("robots", "noai")), AGENT));

    assertThat(preferences.statements())
        .extracting(UsageStatement::source)
        .containsExactlyInAnyOrder(
            UsageSource.ROBOTS_TXT_CONTENT_SIGNAL,
            UsageSource.X_ROBOTS_TAG,
            UsageSource.ROBOTS_META);
    assertThat(preferences.problems())
        .singleElement()
        .extracting(UsageProblem::source)
        .isEqualTo(UsageSource.HTTP_CONTENT_USAGE);
    assertThat(EffectsText.of(preferences.summary()))
        .isEqualTo("ai-training=n genai-training=n image-ai-training=n");
  }

  @Test
  void keepsAtMostTheLimitOfStatementsButCountsThemAll() {
    List<UsageFindings> findings = new ArrayList<>();
    for (int i = 0; i < UsagePreferences.MAX_STATEMENTS; i++) {
      findings.add(ContentUsage.read("search=y", UsageSource.HTTP_CONTENT_USAGE, ""));
    }
    findings.add(ContentUsage.read("search=n", UsageSource.HTTP_CONTENT_USAGE, ""));

    UsagePreferences preferences = UsagePreferences.combine(findings);

    assertThat(preferences.statements()).hasSize(UsagePreferences.MAX_STATEMENTS);
    assertThat(preferences.preferenceFor(UseCategory.SEARCH))
        .isEqualTo(Preference.STATED_DISALLOWED);
    assertThat(preferences.problems())
        .extracting(UsageProblem::message)
        .containsExactly("1 statements past the first 64 not kept (the summary counts them)");
  }

  private static UsagePreferences tdmRep(String file, String header, String meta, String policy) {
    return UsagePreferences.combine(tdmRepFindings(file, header, meta, policy));
  }

  /** TDMRep from the three techniques; a policy is {@code header=URL} or {@code meta=URL}. */
  private static UsageFindings tdmRepFindings(
      String file, String header, String meta, String policy) {
    UsageFindings found = UsageFindings.NONE;
    if (!file.isEmpty()) {
      String json = "[{\"location\": \"/\", \"tdm-reservation\": " + file + "}]";
      found = found.and(TdmRepFile.parse(json.getBytes(UTF_8)).findingsFor("/page"));
    }
    Map<String, String> headers = new java.util.HashMap<>();
    if (!header.isEmpty()) {
      headers.put("tdm-reservation", header);
    }
    if (policy.startsWith("header=")) {
      headers.put("tdm-policy", policy.substring("header=".length()));
    }
    found = found.and(UsageHeaders.read(headers, AGENT));
    List<MetaTag> tags = new ArrayList<>();
    if (!meta.isEmpty()) {
      tags.add(new MetaTag("tdm-reservation", meta));
    }
    if (policy.startsWith("meta=")) {
      tags.add(new MetaTag("tdm-policy", policy.substring("meta=".length())));
    }
    return found.and(UsageMeta.read(tags, AGENT));
  }
}
