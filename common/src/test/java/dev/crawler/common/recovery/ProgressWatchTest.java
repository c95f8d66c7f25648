package dev.crawler.common.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProgressWatchTest {

  private static final Instant START = Instant.parse("2026-11-25T08:00:00Z");
  private static final Optional<String> LAG =
      Optional.of("149 records behind on crawl.discovered-1");

  private final ProgressWatch watch = new ProgressWatch(Duration.ofSeconds(60));

  @Test
  void isStalledOnceItHadWorkAndMadeNoProgressForLongerThanTheBound() {
    watch.observe(100, LAG, START);
    watch.observe(100, LAG, START.plusSeconds(30));
    assertThat(watch.stall(START.plusSeconds(60))).isEmpty();

    assertThat(watch.stall(START.plusSeconds(61)))
        .hasValue(
            "no progress for 61 s (bound 60 s) while 149 records behind on crawl.discovered-1");
  }

  @Test
  void progressStartsTheStandstillAgain() {
    watch.observe(100, LAG, START);
    watch.observe(101, LAG, START.plusSeconds(50));

    assertThat(watch.stall(START.plusSeconds(100))).isEmpty();
    assertThat(watch.stall(START.plusSeconds(111))).isPresent();
  }

  @Test
  void anIdleServiceIsNeverStalled() {
    watch.observe(100, Optional.empty(), START);

    assertThat(watch.stall(START.plusSeconds(3600))).isEmpty();
  }

  @Test
  void theStandstillCountsFromWhenTheWorkCame() {
    watch.observe(100, Optional.empty(), START);
    watch.observe(100, LAG, START.plusSeconds(3000));

    assertThat(watch.stall(START.plusSeconds(3059))).isEmpty();
    assertThat(watch.stall(START.plusSeconds(3061))).isPresent();
  }

  @Test
  void aStallEndsWhenProgressComes() {
    watch.observe(100, LAG, START);
    assertThat(watch.stall(START.plusSeconds(90))).isPresent();

    watch.observe(120, LAG, START.plusSeconds(95));

    assertThat(watch.stall(START.plusSeconds(96))).isEmpty();
  }

  @Test
  void aStallEndsWhenTheWorkIsGone() {
    watch.observe(100, LAG, START);
    watch.observe(100, Optional.empty(), START.plusSeconds(90));

    assertThat(watch.stall(START.plusSeconds(91))).isEmpty();
  }
}
