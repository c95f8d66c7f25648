package dev.crawler.frontier.recrawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 000's worked examples, Tables 6.8, 6.9 and 6.10, reproduced exactly in virtual time. */
class RecrawlSchedulerTest {

  private static final Instant T0 = Instant.parse("2019-09-02T16:00:00Z");
  private static final DateTimeFormatter SEED_DATE =
      DateTimeFormatter.ofPattern("dd.MM.yyyy '@' HH:mm", Locale.ROOT);

  /**
   * Table 6.8: three sites with 5, 3 and 10 suitable single-page posts (Table 6.7, oldest first),
   * max recrawl count 1, 2 runs per event, an event every 5 minutes.
   */
  @ParameterizedTest(name = "minute {0}: {1} recrawls [{2}], {3} remaining")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0  | Site 1 | Post 1.1, Post 1.2 | 3
          5  | Site 2 | Post 2.1, Post 2.2 | 1
          10 | Site 3 | Post 3.1, Post 3.2 | 8
          15 | Site 1 | Post 1.3, Post 1.4 | 1
          20 | Site 2 | Post 2.3           | 0
          25 | Site 3 | Post 3.3, Post 3.4 | 6
          30 | Site 1 | Post 1.5           | 0
          35 | Site 3 | Post 3.5, Post 3.6 | 4
          40 | Site 3 | Post 3.7, Post 3.8 | 2
          45 | Site 3 | Post 3.9, Post 3.10 | 0
          """)
  void table68(int minute, String site, String posts, int remaining) {
    RecrawlScheduler scheduler = table67();
    RecrawlScheduler.Event event = null;
    for (int m = 0; m <= minute; m += 5) {
      event = scheduler.fire(T0.plus(Duration.ofMinutes(m)));
    }

    assertThat(event.site()).contains(site);
    assertThat(event.runs())
        .extracting(RecrawlScheduler.Run::document)
        .containsExactly(posts.split(", "));
    assertThat(scheduler.suitableCount(site, event.at())).isEqualTo(remaining);
  }

  @Test
  void table68NothingFromMinute50() {
    RecrawlScheduler scheduler = table67();
    for (int m = 0; m <= 45; m += 5) {
      assertThat(scheduler.fire(T0.plus(Duration.ofMinutes(m))).runs()).isNotEmpty();
    }
    for (int m = 50; m <= 120; m += 5) {
      RecrawlScheduler.Event event = scheduler.fire(T0.plus(Duration.ofMinutes(m)));
      assertThat(event.site()).as("minute %d", m).isEmpty();
      assertThat(event.runs()).isEmpty();
    }
  }

  /**
   * Table 6.9: one site, one post, min 30 minutes between recrawls, max count 5, an event every
   * minute from 02.09.2019 16:00.
   */
  @Test
  void table69() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    scheduler.site("Site", new RecrawlPolicy(true, 1, 5, Duration.ofMinutes(30), Optional.empty()));
    scheduler.document("Site", "Post", List.of("Post"), T0.minus(Duration.ofDays(1)));
    List<String> recrawls = new ArrayList<>();
    for (int m = 0; m <= 6 * 60; m++) {
      Instant now = T0.plus(Duration.ofMinutes(m));
      if (!scheduler.fire(now).runs().isEmpty()) {
        recrawls.add(SEED_DATE.format(LocalDateTime.ofInstant(now, ZoneOffset.UTC)));
      }
    }

    assertThat(recrawls)
        .containsExactly(
            "02.09.2019 @ 16:00",
            "02.09.2019 @ 16:30",
            "02.09.2019 @ 17:00",
            "02.09.2019 @ 17:30",
            "02.09.2019 @ 18:00");
  }

  /** Table 6.10: newer than 1440 minutes, at 10.09.2019 12:00. */
  @ParameterizedTest(name = "{0} published {1}: suitable {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          Post 1 | 02.09.2019 @ 16:00 | No
          Post 2 | 02.09.2019 @ 20:00 | No
          Post 3 | 05.09.2019 @ 12:00 | No
          Post 4 | 08.09.2019 @ 21:00 | No
          Post 5 | 09.09.2019 @ 10:00 | No
          Post 6 | 09.09.2019 @ 12:00 | No
          Post 7 | 09.09.2019 @ 12:01 | Yes
          Post 8 | 10.09.2019 @ 10:00 | Yes
          """)
  void table610(String post, String published, String suitable) {
    RecrawlPolicy policy =
        new RecrawlPolicy(true, 1, 1, Duration.ZERO, Optional.of(Duration.ofMinutes(1440)));
    Instant now = seedDate("10.09.2019 @ 12:00");

    assertThat(RecrawlScheduler.isSuitable(policy, 0, null, seedDate(published), now))
        .isEqualTo(suitable.equals("Yes"));
  }

  @Test
  void table610ThroughEvents() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    scheduler.site(
        "Site",
        new RecrawlPolicy(true, 10, 1, Duration.ZERO, Optional.of(Duration.ofMinutes(1440))));
    String[][] posts = {
      {"Post 1", "02.09.2019 @ 16:00"}, {"Post 2", "02.09.2019 @ 20:00"},
      {"Post 3", "05.09.2019 @ 12:00"}, {"Post 4", "08.09.2019 @ 21:00"},
      {"Post 5", "09.09.2019 @ 10:00"}, {"Post 6", "09.09.2019 @ 12:00"},
      {"Post 7", "09.09.2019 @ 12:01"}, {"Post 8", "10.09.2019 @ 10:00"}
    };
    for (String[] post : posts) {
      scheduler.document("Site", post[0], List.of(post[0]), seedDate(post[1]));
    }

    RecrawlScheduler.Event event = scheduler.fire(seedDate("10.09.2019 @ 12:00"));

    assertThat(event.runs())
        .extracting(RecrawlScheduler.Run::document)
        .containsExactly("Post 7", "Post 8");
  }

  @Test
  void recrawlsTheSiteOnlyWhenBothSwitchesAreOn() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    scheduler.site("Off", new RecrawlPolicy(false, 2, 1, Duration.ZERO, Optional.empty()));
    scheduler.document("Off", "a", List.of("a"), T0);

    assertThat(scheduler.fire(T0).runs()).isEmpty();
  }

  @Test
  void takesOneRunPerPageAndStartsNoOtherDocumentUntilAllPagesAreDone() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    scheduler.site("S", new RecrawlPolicy(true, 2, 1, Duration.ZERO, Optional.empty()));
    scheduler.site("T", new RecrawlPolicy(true, 2, 1, Duration.ZERO, Optional.empty()));
    scheduler.document(
        "S", "article", List.of("article?page=1", "article?page=2", "article?page=3"), T0);
    scheduler.document("S", "next", List.of("next"), T0.plusSeconds(1));
    scheduler.document("T", "t", List.of("t"), T0);

    RecrawlScheduler.Event first = scheduler.fire(T0);
    RecrawlScheduler.Event second = scheduler.fire(T0.plusSeconds(300));
    RecrawlScheduler.Event third = scheduler.fire(T0.plusSeconds(600));

    assertThat(first.runs())
        .extracting(RecrawlScheduler.Run::page)
        .containsExactly("article?page=1", "article?page=2");
    assertThat(second.site()).contains("T");
    assertThat(third.runs())
        .extracting(RecrawlScheduler.Run::page)
        .containsExactly("article?page=3", "next");
    assertThat(third.runs().get(0).pageIndex()).isEqualTo(2);
    assertThat(third.runs().get(0).pageCount()).isEqualTo(3);
  }

  @Test
  void aRemovedDocumentIsNotRecrawled() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    scheduler.site("S", new RecrawlPolicy(true, 5, 1, Duration.ZERO, Optional.empty()));
    scheduler.document("S", "a", List.of("a"), T0);
    scheduler.document("S", "b", List.of("b"), T0);
    scheduler.remove("a");

    assertThat(scheduler.fire(T0).runs())
        .extracting(RecrawlScheduler.Run::document)
        .containsExactly("b");
  }

  private static RecrawlScheduler table67() {
    RecrawlScheduler scheduler = new RecrawlScheduler();
    RecrawlPolicy policy = new RecrawlPolicy(true, 2, 1, Duration.ZERO, Optional.empty());
    int[] postCounts = {5, 3, 10};
    for (int s = 1; s <= 3; s++) {
      scheduler.site("Site " + s, policy);
      for (int p = 1; p <= postCounts[s - 1]; p++) {
        // oldest at the top: published a minute apart
        scheduler.document(
            "Site " + s,
            "Post " + s + "." + p,
            List.of("Post " + s + "." + p),
            T0.minus(Duration.ofDays(30)).plus(Duration.ofMinutes(p)));
      }
    }
    return scheduler;
  }

  private static Instant seedDate(String text) {
    return LocalDateTime.parse(text, SEED_DATE).toInstant(ZoneOffset.UTC);
  }
}
