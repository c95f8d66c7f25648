package dev.crawler.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.OriginStats;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrawlStatusTest {

  private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

  @Test
  void sumsTheLatestFiguresOfEachOriginPerSite() {
    CrawlStatus status = new CrawlStatus();
    status.add(
        "https://www.a.com",
        stats("https://www.a.com", "a.com", 10, 2, NOW.minusSeconds(30), Map.of("COMMITTED", 5L)));
    status.add(
        "https://www.a.com",
        stats("https://www.a.com", "a.com", 7, 2, NOW.minusSeconds(5), Map.of("COMMITTED", 8L)));
    status.add(
        "https://blog.a.com",
        stats(
            "https://blog.a.com",
            "a.com",
            3,
            1,
            NOW.minusSeconds(5),
            Map.of("COMMITTED", 1L, "NOT_FOUND", 2L)));
    OriginStats paused = stats("https://b.org", "b.org", 0, 0, NOW.minusSeconds(5), Map.of());
    paused.setPausedUntil(NOW.plusSeconds(600));
    status.add("https://b.org", paused);

    assertThat(status.sites(NOW))
        .extracting(CrawlStatus.Row::name)
        .containsExactly("a.com", "b.org");
    CrawlStatus.Row a = status.sites(NOW).get(0);
    assertThat(a.origins()).isEqualTo(2);
    assertThat(a.queued()).isEqualTo(10);
    assertThat(a.inFlight()).isEqualTo(3);
    assertThat(a.done()).containsExactly(Map.entry("COMMITTED", 9L), Map.entry("NOT_FOUND", 2L));
    assertThat(status.sites(NOW).get(1).paused()).isEqualTo(1);
    assertThat(status.total(NOW).doneTotal()).isEqualTo(11);
    assertThat(status.origins(NOW))
        .extracting(CrawlStatus.Row::name)
        .containsExactly("https://www.a.com", "https://blog.a.com", "https://b.org");
    assertThat(status.updatedAt()).contains(NOW.minusSeconds(5));
  }

  @Test
  void measuresThroughputOverTheLastMinuteFromTheFiguresBeforeIt() {
    CrawlStatus status = new CrawlStatus();
    status.add(
        "https://a.com",
        stats("https://a.com", "a.com", 0, 0, NOW.minusSeconds(300), Map.of("COMMITTED", 10L)));
    status.add(
        "https://a.com",
        stats("https://a.com", "a.com", 0, 0, NOW.minusSeconds(65), Map.of("COMMITTED", 100L)));
    status.add(
        "https://a.com",
        stats("https://a.com", "a.com", 0, 0, NOW.minusSeconds(30), Map.of("COMMITTED", 130L)));
    status.add(
        "https://a.com",
        stats(
            "https://a.com",
            "a.com",
            0,
            0,
            NOW.minusSeconds(2),
            Map.of("COMMITTED", 160L, "NOT_FOUND", 2L)));
    // an origin idle for longer than the window adds nothing
    status.add(
        "https://b.com",
        stats("https://b.com", "b.com", 0, 0, NOW.minusSeconds(600), Map.of("COMMITTED", 50L)));

    assertThat(status.total(NOW).pagesPerSecond()).isEqualTo(62 / 60.0);
  }

  @Test
  void showsEachSitesAndOriginsBudgetAndUse() {
    CrawlStatus status = new CrawlStatus();
    OriginStats www = stats("https://www.a.com", "a.com", 0, 0, NOW, Map.of());
    www.setAdmitted(300);
    www.setOriginBudget(300);
    www.setSiteBudget(500);
    OriginStats blog = stats("https://blog.a.com", "a.com", 0, 0, NOW, Map.of());
    blog.setAdmitted(150);
    blog.setSiteBudget(500);
    status.add("https://www.a.com", www);
    status.add("https://blog.a.com", blog);
    status.add("https://b.org", stats("https://b.org", "b.org", 0, 0, NOW, Map.of()));

    assertThat(status.sites(NOW))
        .extracting(StatusCommand::budget)
        .containsExactly("450/500", "0/-");
    assertThat(status.origins(NOW))
        .extracting(row -> row.name() + " " + StatusCommand.budget(row))
        .containsExactlyInAnyOrder(
            "https://www.a.com 300/300", "https://blog.a.com 150/-", "https://b.org 0/-");
    assertThat(StatusCommand.budget(status.total(NOW))).isEqualTo("450/-");
  }

  @Test
  void forgetsAnOriginAtItsTombstone() {
    CrawlStatus status = new CrawlStatus();
    status.add("https://a.com", stats("https://a.com", "a.com", 4, 0, NOW, Map.of()));
    status.add("https://a.com", null);

    assertThat(status.origins(NOW)).isEmpty();
    assertThat(status.updatedAt()).isEmpty();
  }

  private static OriginStats stats(
      String origin, String site, long queued, int inFlight, Instant at, Map<String, Long> done) {
    return OriginStats.newBuilder()
        .setOrigin(origin)
        .setSite(site)
        .setInScope(true)
        .setQueued(queued)
        .setInFlight(inFlight)
        .setDone(done)
        .setUpdatedAt(at)
        .build();
  }
}
