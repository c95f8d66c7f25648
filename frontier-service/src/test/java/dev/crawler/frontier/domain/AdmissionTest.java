package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AdmissionTest {

  @ParameterizedTest(name = "known={0} inScope={1} depth={2} max={3} -> {4}")
  @CsvSource({
    // known, in scope, depth, max depth, decision
    "false, true,  0, -1, QUEUE",
    "false, true,  9, -1, QUEUE",
    "false, true,  2,  2, QUEUE",
    "false, true,  3,  2, TOO_DEEP",
    "false, false, 0, -1, OUT_OF_SCOPE",
    "false, false, 3,  2, OUT_OF_SCOPE",
    "true,  true,  0, -1, KNOWN",
    "true,  false, 5,  2, KNOWN",
  })
  void decidesByKnownScopeAndDepth(boolean known, boolean inScope, int depth, int maxDepth, String expected) {
    Admission admission = Admission.decide(known, inScope, "http://a.example", depth, maxDepth);
    String decision = admission instanceof Admission.Reject reject ? reject.outcome().name() : admission == Admission.QUEUE ? "QUEUE" : "KNOWN";
    assertThat(decision).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"false, 0, 'origin http://a.example is not the origin of a seed'", "true, 4, 'depth 4 is beyond the maximum depth 3'"})
  void rejectionSaysWhy(boolean inScope, int depth, String detail) {
    Admission.Reject reject = (Admission.Reject) Admission.decide(false, inScope, "http://a.example", depth, 3);
    assertThat(reject.detail()).isEqualTo(detail);
    assertThat(reject.outcome()).isIn(Outcome.OUT_OF_SCOPE, Outcome.TOO_DEEP);
  }
}
