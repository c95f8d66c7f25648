package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.usage.UsageDecision.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsageRequirementTest {

  @ParameterizedTest(name = "{0} required, [{1}], not stated passes {2} -> {3} {4}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // required use | Content-Usage header | not stated passes | verdict   | passes
        "AI_TRAINING    | train-ai=y           | false             | ALLOWED    | true",
        "AI_TRAINING    | train-ai=n           | true              | REFUSED    | false",
        "AI_TRAINING    | search=y             | false             | NOT_STATED | false",
        "AI_TRAINING    | search=y             | true              | NOT_STATED | true",
        "SEARCH         | 'train-ai=n, search=y' | false           | ALLOWED    | true",
        "GENAI_TRAINING | 'train-ai=y, train-genai=n' | true       | REFUSED    | false",
        "TDM            | ''                   | true              | NOT_STATED | true",
      })
  void decidesWhetherADocumentAllowsTheRequiredUse(
      UseCategory use, String header, boolean notStatedPasses, Verdict verdict, boolean passes) {
    UsagePreferences preferences =
        UsagePreferences.combine(UsageHeaders.read(Map.of("content-usage", header), "bot"));
    UsageRequirement requirement = new UsageRequirement(use, notStatedPasses);

    UsageDecision decision = requirement.decide(preferences);

    assertThat(decision.verdict()).isEqualTo(verdict);
    assertThat(decision.passes()).isEqualTo(passes);
    assertThat(requirement.isMetBy(preferences)).isEqualTo(passes);
    assertThat(decision.refusedBy().isPresent()).isEqualTo(verdict == Verdict.REFUSED);
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource({"true", "false"})
  void namesTheStatementThatRefused(boolean notStatedPasses) {
    UsagePreferences preferences =
        UsagePreferences.combine(
            UsageHeaders.read(Map.of("content-usage", "train-ai=y"), "bot"),
            UsageMeta.read(List.of(new MetaTag("robots", "noai")), "bot"));

    UsageDecision decision =
        new UsageRequirement(UseCategory.AI_TRAINING, notStatedPasses).decide(preferences);

    assertThat(decision.verdict()).isEqualTo(Verdict.REFUSED);
    assertThat(decision.refusedBy().orElseThrow().source()).isEqualTo(UsageSource.ROBOTS_META);
    assertThat(decision.refusedBy().orElseThrow().raw()).isEqualTo("noai");
  }
}
