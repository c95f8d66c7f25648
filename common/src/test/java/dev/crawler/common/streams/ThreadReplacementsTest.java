package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadReplacementsTest {

  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-25T10:00:00Z"));
  private final ThreadReplacements replacements = new ThreadReplacements(now::get);

  @Test
  void aFewReplacementsAreBadMomentsMoreWithinTheWindowAreAServiceThatCannotGoOn() {
    for (int i = 0; i < ThreadReplacements.LIMIT; i++) {
      replacements.replaced(new IllegalStateException("boom " + i));
      now.set(now.get().plusSeconds(30));
    }
    assertThat(replacements.problem()).isEmpty();

    replacements.replaced(new IllegalStateException("boom again"));

    assertThat(replacements.problem())
        .hasValue(
            "a stream thread failed and was replaced 6 times in 10 min; the last failure:"
                + " java.lang.IllegalStateException: boom again");
  }

  @Test
  void replacementsOlderThanTheWindowAreForgotten() {
    for (int i = 0; i <= ThreadReplacements.LIMIT; i++) {
      replacements.replaced(new IllegalStateException("boom"));
    }
    assertThat(replacements.problem()).isPresent();

    now.set(now.get().plus(ThreadReplacements.WINDOW).plus(Duration.ofSeconds(1)));

    assertThat(replacements.problem()).isEmpty();
  }
}
