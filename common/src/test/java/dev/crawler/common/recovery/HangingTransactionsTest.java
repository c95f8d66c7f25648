package dev.crawler.common.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.recovery.HangingTransactions.CoordinatorView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HangingTransactionsTest {

  private static final Instant NOW = Instant.parse("2026-11-25T08:10:00Z");
  private static final TopicPartition CHANGELOG =
      new TopicPartition("crawler-frontier-frontier-urls-changelog", 1);
  private static final TopicPartition OTHER = new TopicPartition("crawl.fetch-requests", 1);

  /**
   * The coordinator's view: NONE (no coordinator knows the producer), EMPTY (it knows it, with no
   * partition: its transaction ended), THIS (the open partition is in its transaction), OTHER
   * (another partition is).
   */
  @ParameterizedTest(name = "open {0} s, coordinator {1}, timeout {2} s: hanging {3}")
  @CsvSource({
    // the crash of the standstill: the coordinator ended
    // the transaction, this partition got no marker
    "25, EMPTY, 10, true",
    "25, OTHER, 10, true",
    // still within the producer's timeout: the coordinator may yet end it
    "9, EMPTY, 10, false",
    "10, EMPTY, 10, false",
    // the coordinator will write this partition's marker
    "25, THIS, 10, false",
    "3600, THIS, 10, false",
    // a producer no coordinator knows: only past the longest timeout a producer can have
    "25, NONE, 10, false",
    "900, NONE, 10, false",
    "901, NONE, 10, true",
  })
  void judgesAnOpenTransactionByWhatItsCoordinatorSays(
      long ageSeconds, String coordinator, long timeoutSeconds, boolean hanging) {
    OpenTransaction open =
        new OpenTransaction(CHANGELOG, 3, (short) 32, 0, 599, NOW.minusSeconds(ageSeconds));
    Map<Long, CoordinatorView> views =
        switch (coordinator) {
          case "NONE" -> Map.of();
          case "EMPTY" ->
              Map.of(3L, new CoordinatorView(Duration.ofSeconds(timeoutSeconds), Set.of()));
          case "THIS" ->
              Map.of(
                  3L, new CoordinatorView(Duration.ofSeconds(timeoutSeconds), Set.of(CHANGELOG)));
          default ->
              Map.of(3L, new CoordinatorView(Duration.ofSeconds(timeoutSeconds), Set.of(OTHER)));
        };

    assertThat(HangingTransactions.hanging(List.of(open), views, NOW))
        .isEqualTo(hanging ? List.of(open) : List.of());
  }

  @ParameterizedTest
  @CsvSource({"3, true", "4, false"})
  void asksTheViewOfTheTransactionsOwnProducer(long producerOfTheView, boolean hanging) {
    OpenTransaction open =
        new OpenTransaction(CHANGELOG, 3, (short) 32, 0, 599, NOW.minusSeconds(60));
    Map<Long, CoordinatorView> views =
        Map.of(producerOfTheView, new CoordinatorView(Duration.ofSeconds(10), Set.of()));

    assertThat(HangingTransactions.hanging(List.of(open), views, NOW)).hasSize(hanging ? 1 : 0);
  }
}
