package dev.crawler.cli.status;

import dev.crawler.events.OriginStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Where a crawl stands, from the records of crawl.stats read in order: per origin the latest
 * figures, and the throughput over the last {@link #WINDOW} from the oldest figures of that window
 * the topic still holds (the frontier publishes an origin's figures every few seconds while it
 * changes; the topic is compacted, so older figures may be gone, and an origin idle for longer than
 * the window counts for nothing). Pure: records in, rows out; not thread-safe.
 */
public final class CrawlStatus {

  /** The span the throughput is measured over. */
  public static final Duration WINDOW = Duration.ofSeconds(60);

  /**
   * The figures of one origin, or the sum over a site's origins.
   *
   * @param name the origin, or the site
   * @param origins how many origins
   * @param queued URLs queued
   * @param inFlight requests in flight
   * @param paused origins held until later (the fetcher asked to come back)
   * @param done URLs whose fetch ended, by outcome
   * @param pagesPerSecond URLs ended per second over the window; 0 when none ended in it
   * @param admitted URLs admitted for fetching (sitemaps aside): the use of the budget
   * @param budget the most URLs admitted: the origin's max-pages-per-origin, or the site's
   *     max-pages-per-site; -1 for no limit (and for the total)
   */
  public record Row(
      String name,
      int origins,
      long queued,
      long inFlight,
      int paused,
      Map<String, Long> done,
      double pagesPerSecond,
      long admitted,
      long budget) {

    /** All URLs ended, whatever the outcome. */
    public long doneTotal() {
      return done.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Map<String, OriginStats> latest = new HashMap<>();

  /** Per origin, the figures published in the window so far, oldest first (a few per origin). */
  private final Map<String, List<OriginStats>> recent = new HashMap<>();

  /** Reads one record of crawl.stats; a tombstone ({@code null}) forgets the origin. */
  public void add(String origin, @Nullable OriginStats stats) {
    if (stats == null) {
      latest.remove(origin);
      recent.remove(origin);
      return;
    }
    latest.put(origin, stats);
    List<OriginStats> history = recent.computeIfAbsent(origin, o -> new ArrayList<>());
    history.add(stats);
    // keep one figure from before the window of the
    // newest, and those within it: memory stays bounded
    Instant since = stats.getUpdatedAt().minus(WINDOW);
    while (history.size() > 1 && !history.get(1).getUpdatedAt().isAfter(since)) {
      history.remove(0);
    }
  }

  /** Every origin's row, those with the most queued first. */
  public List<Row> origins(Instant now) {
    List<Row> rows = new ArrayList<>();
    latest.forEach(
        (origin, stats) -> rows.add(row(origin, List.of(stats), now, stats.getOriginBudget())));
    rows.sort(Comparator.comparingLong(Row::queued).reversed().thenComparing(Row::name));
    return rows;
  }

  /** One row per site (registered domain), in name order. */
  public List<Row> sites(Instant now) {
    Map<String, List<OriginStats>> bySite = new TreeMap<>();
    latest
        .values()
        .forEach(
            stats ->
                bySite
                    .computeIfAbsent(
                        stats.getSite().isEmpty() ? stats.getOrigin() : stats.getSite(),
                        s -> new ArrayList<>())
                    .add(stats));
    List<Row> rows = new ArrayList<>();
    bySite.forEach(
        (site, members) ->
            rows.add(
                row(
                    site,
                    members,
                    now,
                    members.stream().mapToLong(OriginStats::getSiteBudget).max().orElse(-1))));
    return rows;
  }

  /** The sum over every origin. */
  public Row total(Instant now) {
    return row("total", latest.values(), now, -1);
  }

  /** When the newest figures were published, or empty when the topic holds none. */
  public Optional<Instant> updatedAt() {
    return latest.values().stream().map(OriginStats::getUpdatedAt).max(Comparator.naturalOrder());
  }

  private Row row(String name, Collection<OriginStats> members, Instant now, long budget) {
    long admitted = 0;
    long queued = 0;
    long inFlight = 0;
    int paused = 0;
    long endedInWindow = 0;
    Map<String, Long> done = new LinkedHashMap<>();
    for (OriginStats stats : members) {
      queued += stats.getQueued();
      admitted += stats.getAdmitted();
      inFlight += stats.getInFlight();
      if (stats.getPausedUntil().isAfter(now)) {
        paused++;
      }
      stats.getDone().forEach((outcome, count) -> done.merge(outcome, count, Long::sum));
      endedInWindow += endedInWindow(stats.getOrigin(), now);
    }
    Map<String, Long> sorted = new LinkedHashMap<>();
    done.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return new Row(
        name,
        members.size(),
        queued,
        inFlight,
        paused,
        sorted,
        endedInWindow / (double) WINDOW.toSeconds(),
        admitted,
        budget);
  }

  /**
   * URLs of the origin ended since the window began: latest total minus the total of the last
   * figures before it.
   */
  private long endedInWindow(String origin, Instant now) {
    List<OriginStats> history = recent.getOrDefault(origin, List.of());
    if (history.isEmpty()) {
      return 0;
    }
    Instant since = now.minus(WINDOW);
    OriginStats newest = history.get(history.size() - 1);
    if (newest.getUpdatedAt().isBefore(since)) {
      return 0;
    }
    // the last figures before the window, or else the oldest within it
    OriginStats base = history.get(0);
    for (OriginStats stats : history) {
      if (stats.getUpdatedAt().isAfter(since)) {
        break;
      }
      base = stats;
    }
    return total(newest) - total(base);
  }

  private static long total(OriginStats stats) {
    return stats.getDone().values().stream().mapToLong(Long::longValue).sum();
  }
}
