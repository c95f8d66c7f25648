package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentUsageTest {

  @ParameterizedTest(name = "[{0}] states [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // the latest vocabulary (draft-ietf-aipref-vocab-07): train-ai and search
        "train-ai=n                      | ai-training=n genai-training=n",
        "train-ai=y, search=n            | ai-training=y genai-training=y search=n",
        "search=y                        | search=y",
        // train-genai of drafts -02 and -03 narrows train-ai
        "train-ai=y, train-genai=n       | ai-training=y genai-training=n",
        "train-genai=n                   | genai-training=n",
        // older labels read as aliases
        "ai-use=n                        | ai-use=n",
        "ai-output=n                     | ai-use=n",
        "ai=n, genai=y, inference=y      | ai-training=n genai-training=y ai-use=y",
        // the Content Signals labels proposed as aipref categories
        "ai-train=n, ai-input=y          | ai-training=n genai-training=n ai-use=y",
        // the broadest category of drafts -01 to -04 covers what the statement leaves unstated
        "bots=n                          | ai-training=n genai-training=n ai-use=n search=n tdm=n",
        "bots=n, search=y                | ai-training=n genai-training=n ai-use=n search=y tdm=n",
        "all=y, train-ai=n               | ai-training=n genai-training=n ai-use=y search=y tdm=y",
        "tdm=n                           | ai-training=n genai-training=n ai-use=n search=n tdm=n",
        // a label and its alias in one statement: the more restrictive
        "train-ai=y, ai=n                | ai-training=n genai-training=n",
        // only the Tokens y and n state a preference; parameters are disregarded
        "train-ai=\"n\", search=?1         | ''",
        "train-ai=yes                    | ''",
        "train-ai=n;until=2030           | ai-training=n genai-training=n",
        // repeated key: the last value (a Boolean here) holds, so nothing is stated
        "train-ai=n, train-ai            | ''",
        "''                              | ''",
      })
  void readsTheVocabulary(String value, String expected) {
    UsageFindings findings = ContentUsage.read(value, UsageSource.HTTP_CONTENT_USAGE, "");

    assertThat(findings.problems()).isEmpty();
    assertThat(findings.statements()).hasSize(1);
    assertThat(EffectsText.of(findings.statements().get(0).effects())).isEqualTo(expected);
  }

  @Test
  void keepsEveryTermAsWrittenIncludingUnknownOnes() {
    UsageStatement statement =
        ContentUsage.read(
                "train-ai=n, x-licence=\"https://a.example/l\", foo;bar=1, search=y;q=2",
                UsageSource.HTTP_CONTENT_USAGE,
                "")
            .statements()
            .get(0);

    assertThat(statement.terms())
        .containsExactly(
            Map.entry("train-ai", "n"),
            Map.entry("x-licence", "\"https://a.example/l\""),
            Map.entry("foo", ";bar=1"),
            Map.entry("search", "y;q=2"));
    assertThat(statement.raw())
        .isEqualTo("train-ai=n, x-licence=\"https://a.example/l\", foo;bar=1, search=y;q=2");
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "Train-AI=n",
        "train-ai=n,",
        "train-ai: n",
        "train-ai=n search=y",
        "train-ai = n",
      })
  void reportsAndIgnoresAMalformedStatement(String value) {
    UsageFindings findings = ContentUsage.read(value, UsageSource.HTTP_CONTENT_USAGE, "");

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.source()).isEqualTo(UsageSource.HTTP_CONTENT_USAGE);
              assertThat(problem.message())
                  .startsWith("not a structured field dictionary")
                  .contains(value);
            });
  }

  @Test
  void reportsAndIgnoresAStatementOverTheLimit() {
    String value = "train-ai=n, " + "x=y, ".repeat(1000) + "search=n";

    UsageFindings findings = ContentUsage.read(value, UsageSource.HTTP_CONTENT_USAGE, "");

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems().get(0).message())
        .startsWith("statement longer than " + ContentUsage.MAX_VALUE_CHARS);
    assertThat(findings.problems().get(0).message().length())
        .isLessThanOrEqualTo(UsageProblem.MAX_MESSAGE_CHARS + 1);
  }
}
