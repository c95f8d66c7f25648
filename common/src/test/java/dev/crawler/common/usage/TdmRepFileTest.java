package dev.crawler.common.usage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TdmRepFileTest {

  /** The second example of the TDMRep report, with a catch-all rule after it. */
  private static final String EXAMPLE =
      """
      [
        {"location": "/directory-a/", "tdm-reservation": 1},
        {"location": "/directory-b/html/", "tdm-reservation": 1,
         "tdm-policy": "https://provider.example/policies/policy.json"},
        {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0},
        {"location": "/exact$", "tdm-reservation": "0"},
        {"location": "/", "tdm-reservation": 1}
      ]
      """;

  @ParameterizedTest(name = "{0}: [{1}] from {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "/directory-a/report.pdf     | ai-training=n genai-training=n tdm=n | /directory-a/",
        "/directory-b/html/page.html | ai-training=n genai-training=n tdm=n | /directory-b/html/",
        "/directory-b/images/x/y.jpg | ai-training=y genai-training=y tdm=y | /directory-b/images/*.jpg",
        "/directory-b/images/y.png   | ai-training=n genai-training=n tdm=n | /",
        "/exact                      | ai-training=y genai-training=y tdm=y | /exact$",
        "/exact/more                 | ai-training=n genai-training=n tdm=n | /",
      })
  void appliesTheFirstMatchingRule(String path, String expected, String location) {
    UsageFindings findings = TdmRepFile.parse(EXAMPLE.getBytes(UTF_8)).findingsFor(path);

    assertThat(findings.problems()).isEmpty();
    assertThat(EffectsText.of(findings)).isEqualTo(expected);
    UsageStatement statement = findings.statements().get(0);
    assertThat(statement.source()).isEqualTo(UsageSource.TDMREP_FILE);
    assertThat(statement.scope()).isEqualTo(location);
    assertThat(statement.terms()).containsEntry("location", location);
  }

  @Test
  void keepsTheRuleAsWrittenAndItsPolicy() {
    UsageStatement statement =
        TdmRepFile.parse(EXAMPLE.getBytes(UTF_8))
            .findingsFor("/directory-b/html/a")
            .statements()
            .get(0);

    assertThat(statement.raw())
        .isEqualTo(
            "{\"location\":\"/directory-b/html/\",\"tdm-reservation\":1,"
                + "\"tdm-policy\":\"https://provider.example/policies/policy.json\"}");
    assertThat(statement.terms())
        .containsExactly(
            Map.entry("location", "/directory-b/html/"),
            Map.entry("tdm-reservation", "1"),
            Map.entry("tdm-policy", "https://provider.example/policies/policy.json"));
  }

  @Test
  void aPathNoRuleMatchesHasNothingStated() {
    String json = "[{\"location\": \"/only/\", \"tdm-reservation\": 1}]";

    assertThat(TdmRepFile.parse(json.getBytes(UTF_8)).findingsFor("/other").isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "2",
        "-1",
        "true",
        "\"yes\"",
        "1.5",
        "null",
        "(missing)",
      })
  void aMatchingRuleWithAReservationNeither1Nor0LeavesItUnset(String reservation) {
    String value = reservation.equals("(missing)") ? "" : ", \"tdm-reservation\": " + reservation;
    String json =
        "[{\"location\": \"/a/\"" + value + "}, {\"location\": \"/\", \"tdm-reservation\": 1}]";

    UsageFindings findings = TdmRepFile.parse(json.getBytes(UTF_8)).findingsFor("/a/page");

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.source()).isEqualTo(UsageSource.TDMREP_FILE);
              assertThat(problem.message()).startsWith("tdm-reservation is neither 0 nor 1");
            });
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "{\"location\": \"/\", \"tdm-reservation\": 1}  | tdmrep.json is not a JSON array of rules",
        "[{\"location\": \"/\", \"tdm-reservation\": 1}, | tdmrep.json is not JSON",
        "not json at all                               | tdmrep.json is not JSON",
        "''                                            | tdmrep.json is not a JSON array of rules",
        "[] []                                         | tdmrep.json is not JSON",
      })
  void aMalformedFileStatesNothingAndSaysWhy(String json, String problem) {
    TdmRepFile file = TdmRepFile.parse(json.getBytes(UTF_8));

    UsageFindings findings = file.findingsFor("/anything");
    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo(UsageSource.TDMREP_FILE);
              assertThat(p.message()).startsWith(problem).endsWith("; nothing stated");
            });
    assertThat(file.problems()).isEqualTo(findings.problems());
  }

  @Test
  void aFileOverTheLimitIsNotParsed() {
    StringBuilder json = new StringBuilder("[");
    while (json.length() <= TdmRepFile.MAX_FILE_BYTES) {
      json.append("{\"location\": \"/some/long/location/\", \"tdm-reservation\": 1},");
    }
    json.append("{\"location\": \"/\", \"tdm-reservation\": 1}]");

    UsageFindings findings = TdmRepFile.parse(json.toString().getBytes(UTF_8)).findingsFor("/x");

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems().get(0).message()).contains("over the limit of 65536 bytes");
  }

  @Test
  void skipsAndReportsElementsThatAreNotRules() {
    String json =
        """
        ["/", {"tdm-reservation": 1}, {"location": 5, "tdm-reservation": 1},
         {"location": "/", "tdm-reservation": 1}]
        """;
    TdmRepFile file = TdmRepFile.parse(json.getBytes(UTF_8));

    UsageFindings findings = file.findingsFor("/x");
    assertThat(EffectsText.of(findings)).isEqualTo("ai-training=n genai-training=n tdm=n");
    // the problems of the file are bounded
    assertThat(findings.problems()).hasSize(2);
    assertThat(findings.problems().get(0).message())
        .isEqualTo("rule 1 is not an object with a location string, skipped: \"\"/\"\"");
  }

  @Test
  void noneStatesNothing() {
    assertThat(TdmRepFile.NONE.findingsFor("/x").isEmpty()).isTrue();
  }
}
