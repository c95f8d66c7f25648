package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.common.RunningService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ServiceStartsTest {

  private static RunningService service(String name) {
    return new RunningService() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public boolean isRunning() {
        return true;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void runsWhatTheFirstServicesWereNeededForWhileTheOthersAreStillStarting() {
    CountDownLatch seeded = new CountDownLatch(1);
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    List<Callable<RunningService>> first = List.of(() -> service("frontier"));
    // the parser's start ends only once the seeds went: it would never end were they sent after
    List<Callable<RunningService>> others =
        List.of(
            () -> {
              assertThat(seeded.await(10, TimeUnit.SECONDS)).isTrue();
              return service("parser");
            });
    List<String> started = new ArrayList<>();

    ServiceStarts.startAll(
        first,
        others,
        () -> {
          events.add("seeds sent");
          seeded.countDown();
        },
        service -> started.add(service.name()));

    assertThat(events).containsExactly("seeds sent");
    assertThat(started).containsExactly("frontier", "parser");
  }

  @Test
  void sendsNothingWhenAFirstServiceFailsToStartAndStillHandsOverTheOthers() {
    List<String> events = new ArrayList<>();
    List<String> started = new ArrayList<>();

    assertThatThrownBy(
            () ->
                ServiceStarts.startAll(
                    List.of(
                        () -> {
                          throw new IllegalStateException("no broker");
                        }),
                    List.of(() -> service("parser")),
                    () -> events.add("seeds sent"),
                    service -> started.add(service.name())))
        .hasMessage("no broker");

    assertThat(events).isEmpty();
    assertThat(started).containsExactly("parser");
  }

  @Test
  void handsOverEveryServiceWhenSendingTheSeedsFails() {
    List<String> started = new ArrayList<>();

    assertThatThrownBy(
            () ->
                ServiceStarts.startAll(
                    List.of(() -> service("frontier")),
                    List.of(() -> service("parser")),
                    () -> {
                      throw new IllegalStateException("cannot send the seeds");
                    },
                    service -> started.add(service.name())))
        .hasMessage("cannot send the seeds");

    assertThat(started).containsExactly("frontier", "parser");
  }
}
