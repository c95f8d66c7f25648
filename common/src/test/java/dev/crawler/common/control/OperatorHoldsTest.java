package dev.crawler.common.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.control.OperatorHolds.Hold;
import dev.crawler.common.control.OperatorHolds.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OperatorHoldsTest {

  private static final String A = "https://www.example.org";
  private static final String B = "https://blog.example.org:8443";
  private static final String C = "http://other.net";

  private static Hold hold(Kind kind, String target, boolean isOn, long at) {
    return new Hold(kind, target, isOn, kind == Kind.DELAY ? 2_000 : 0, at, "c" + at, "alice@ops");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // commands, in the order they arrive (kind target on/off time) | held: A | B | C
        "PAUSE * on 1                                  | true | true | true",
        "PAUSE * on 1, PAUSE https://www.example.org off 2 | false | true | true",
        "PAUSE https://www.example.org on 1, PAUSE * off 2 | false | false | false",
        "PAUSE site:example.org on 1                   | true | true | false",
        "BLOCK site:example.org on 1, PAUSE * off 2    | true | true | false",
        "PAUSE * off 2, PAUSE * on 1                   | false | false | false",
        "BLOCK http://other.net on 3, BLOCK http://other.net off 2 | false | false | true",
      })
  void theNewestCommandOfEachKindWinsWhateverItsTargetAndArrival(
      String commands, boolean a, boolean b, boolean c) {
    OperatorHolds holds = new OperatorHolds();
    for (String command : commands.split(",")) {
      String[] parts = command.strip().split(" ");
      holds.apply(
          hold(Kind.valueOf(parts[0]), parts[1], parts[2].equals("on"), Long.parseLong(parts[3])));
    }

    assertThat(holds.isHeld(A)).as("A").isEqualTo(a);
    assertThat(holds.isHeld(B)).as("B").isEqualTo(b);
    assertThat(holds.isHeld(C)).as("C").isEqualTo(c);
  }

  @Test
  void isEmptyOnlyWhileNoHoldIsOn() {
    OperatorHolds holds = new OperatorHolds();
    assertThat(holds.isEmpty()).isTrue();

    holds.apply(hold(Kind.PAUSE, A, true, 1));
    holds.apply(hold(Kind.BLOCK, "*", true, 2));
    assertThat(holds.isEmpty()).isFalse();
    holds.apply(hold(Kind.PAUSE, A, false, 3));
    assertThat(holds.isEmpty()).isFalse();
    holds.apply(hold(Kind.BLOCK, "*", false, 4));

    assertThat(holds.isEmpty()).isTrue();
    assertThat(holds.isHeld(A)).isFalse();
  }

  @Test
  void aCommandSeenAgainChangesNothing() {
    OperatorHolds holds = new OperatorHolds();
    Hold pause = hold(Kind.PAUSE, A, true, 5);

    assertThat(holds.apply(pause)).contains(pause);
    assertThat(holds.apply(pause)).isEmpty();
  }

  @Test
  void aDelayAndABlockThatDeletesDocumentsAreToldPerOrigin() {
    OperatorHolds holds = new OperatorHolds();
    holds.apply(hold(Kind.DELAY, "site:example.org", true, 1));
    holds.apply(new Hold(Kind.BLOCK, B, true, 1, 2, "c2", "bob@ops"));

    assertThat(holds.delayMillisOf(A)).hasValue(2_000);
    assertThat(holds.delayMillisOf(C)).isEmpty();
    assertThat(holds.deletesDocumentsOf(B)).isTrue();
    assertThat(holds.deletesDocumentsOf(A)).isFalse();
    assertThat(holds.inForce()).extracting(Hold::target).containsExactly(B, "site:example.org");
  }

  @Test
  void aHoldReadsBackFromItsLine() {
    Hold hold = new Hold(Kind.BLOCK, "site:example.org", true, 1, 42, "id-1", "alice@ops\tx");

    Hold read = Hold.decode(hold.encode());

    assertThat(read)
        .isEqualTo(new Hold(Kind.BLOCK, "site:example.org", true, 1, 42, "id-1", "alice@ops x"));
  }

  @ParameterizedTest
  @CsvSource({
    "https://www.example.org, example.org",
    "https://blog.example.co.uk:8443, example.co.uk",
    "http://127.0.0.1:8080, 127.0.0.1",
  })
  void aSiteIsTheRegisteredDomainOfTheOrigin(String origin, String site) {
    assertThat(OperatorHolds.siteOf(origin)).isEqualTo(site);
  }
}
