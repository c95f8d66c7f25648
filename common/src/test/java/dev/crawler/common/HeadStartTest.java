package dev.crawler.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HeadStartTest {

  @Test
  void theWorkRunsOnADaemonThreadOfItsName() throws InterruptedException {
    AtomicReference<Thread> ranOn = new AtomicReference<>();

    Thread thread = HeadStart.run("tables-ahead", () -> ranOn.set(Thread.currentThread()));
    thread.join(10_000);

    assertThat(ranOn.get()).isSameAs(thread);
    assertThat(thread.getName()).isEqualTo("tables-ahead");
    assertThat(thread.isDaemon()).isTrue();
  }

  @Test
  void aFailureEndsTheThreadWithoutEscapingIt() throws InterruptedException {
    List<Throwable> uncaught = new ArrayList<>();
    Thread thread =
        HeadStart.run(
            "library-ahead",
            () -> {
              Thread.currentThread().setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
              throw new UnsatisfiedLinkError("no such library");
            });
    thread.join(10_000);

    assertThat(thread.isAlive()).isFalse();
    assertThat(uncaught).isEmpty();
  }
}
