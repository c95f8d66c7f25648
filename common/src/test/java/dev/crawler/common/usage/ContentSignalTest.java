package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentSignalTest {

  @ParameterizedTest(name = "[{0}] states [{1}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "search=yes, ai-input=yes, ai-train=no | ai-training=n genai-training=n ai-use=y search=y",
        "ai-train=no                           | ai-training=n genai-training=n",
        "search=yes,ai-train=no,use=reference  | ai-training=n genai-training=n search=y",
        "AI-Train = No , Search=YES            | ai-training=n genai-training=n search=y",
        "ai-train=maybe                        | ''",
        "use=immediate                         | ''",
      })
  void readsTheSignals(String value, String expected) {
    UsageFindings findings = ContentSignal.read(value, value, "/");

    assertThat(findings.problems()).isEmpty();
    assertThat(EffectsText.of(findings)).isEqualTo(expected);
  }

  @Test
  void keepsEverySignalAsATermIncludingUnknownOnes() {
    UsageStatement statement =
        ContentSignal.read(
                "search=yes, ai-train=no, use=reference",
                "/ search=yes, ai-train=no, use=reference",
                "/")
            .statements()
            .get(0);

    assertThat(statement.terms())
        .containsExactly(
            Map.entry("search", "yes"), Map.entry("ai-train", "no"), Map.entry("use", "reference"));
    assertThat(statement.source()).isEqualTo(UsageSource.ROBOTS_TXT_CONTENT_SIGNAL);
    assertThat(statement.raw()).isEqualTo("/ search=yes, ai-train=no, use=reference");
  }

  @Test
  void skipsAPartThatIsNotASignalAndReadsTheRest() {
    UsageFindings findings =
        ContentSignal.read("ai-train=no, nonsense, =yes", "ai-train=no, nonsense, =yes", "/");

    assertThat(EffectsText.of(findings)).isEqualTo("ai-training=n genai-training=n");
    assertThat(findings.problems())
        .extracting(UsageProblem::message)
        .containsExactly(
            "not a key=value signal, skipped: \"nonsense\"",
            "not a key=value signal, skipped: \"=yes\"");
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {"nothing here", "''", "' , , '"})
  void reportsAValueWithNoSignal(String value) {
    UsageFindings findings = ContentSignal.read(value, value, "/");

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems()).hasSize(1);
  }
}
