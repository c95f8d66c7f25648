package dev.crawler.common.streams;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The stream threads an instance replaced after a failure, over a sliding window. One failure is a
 * bad moment, and a new thread goes on; a thread failing again and again is a record or a state it
 * will never get past, and the instance is not alive any more: more than {@value #LIMIT}
 * replacements within {@link #WINDOW}. Thread-safe.
 */
final class ThreadReplacements {

  /** Replacements within the window an instance may take. */
  static final int LIMIT = 5;

  /** The window replacements are counted over. */
  static final Duration WINDOW = Duration.ofMinutes(10);

  private final InstantSource clock;
  private final Deque<Instant> times = new ArrayDeque<>();
  private String lastError = "";

  ThreadReplacements(InstantSource clock) {
    this.clock = clock;
  }

  /** A stream thread failed with this error and was replaced. */
  synchronized void replaced(Throwable error) {
    times.addLast(clock.instant());
    lastError = String.valueOf(error);
    forgetOld();
  }

  /** What is wrong when threads were replaced more than the limit within the window. */
  synchronized Optional<String> problem() {
    forgetOld();
    if (times.size() <= LIMIT) {
      return Optional.empty();
    }
    return Optional.of(
        "a stream thread failed and was replaced "
            + times.size()
            + " times in "
            + WINDOW.toMinutes()
            + " min; the last failure: "
            + (lastError.length() > 300 ? lastError.substring(0, 300) + "…" : lastError));
  }

  private void forgetOld() {
    Instant oldest = clock.instant().minus(WINDOW);
    while (!times.isEmpty() && times.peekFirst().isBefore(oldest)) {
      times.removeFirst();
    }
  }
}
