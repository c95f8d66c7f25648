package dev.crawler.frontier.recrawl.bench;

import dev.crawler.frontier.recrawl.RecrawlPolicy;
import dev.crawler.frontier.recrawl.RecrawlScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The recrawl scheduler's memory and time per event with many documents (prints figures; not a
 * test). Arguments: documents (default 1,000,000), sites (default 1,000), events (default 100,000).
 */
public final class RecrawlSchedulerBenchmark {

  public static void main(String[] args) {
    int documents = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int sites = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int events = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    long before = usedHeap();
    RecrawlScheduler scheduler = new RecrawlScheduler();
    RecrawlPolicy policy =
        new RecrawlPolicy(true, 10, 3, Duration.ofMinutes(60), Optional.of(Duration.ofDays(30)));
    Instant start = Instant.parse("2026-11-23T00:00:00Z");
    for (int s = 0; s < sites; s++) {
      scheduler.site("https://site-" + s + ".example", policy);
    }
    long loading = System.nanoTime();
    for (int d = 0; d < documents; d++) {
      String site = "https://site-" + (d % sites) + ".example";
      String url = site + "/posts/" + d;
      scheduler.document(site, url, List.of(url), start.minus(Duration.ofMinutes(d % 40_000)));
    }
    double loadSeconds = (System.nanoTime() - loading) / 1e9;
    long after = usedHeap();
    for (int warm = 0; warm < 10_000; warm++) {
      scheduler.fire(start.plus(Duration.ofSeconds(warm)));
    }
    long runs = 0;
    long timed = System.nanoTime();
    for (int e = 0; e < events; e++) {
      runs += scheduler.fire(start.plus(Duration.ofSeconds(10_000 + e))).runs().size();
    }
    double nanosPerEvent = (double) (System.nanoTime() - timed) / events;
    System.out.printf(
        Locale.ROOT,
        "%,d documents across %,d sites: %.0f MB of heap (%.0f bytes per document), loaded in %.1f s; %,d events with %,d runs: %.1f µs per event (%.2f µs per run)%n",
        documents,
        sites,
        (after - before) / 1e6,
        (double) (after - before) / documents,
        loadSeconds,
        events,
        runs,
        nanosPerEvent / 1000,
        nanosPerEvent * events / Math.max(1, runs) / 1000);
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime runtime = Runtime.getRuntime();
    return runtime.totalMemory() - runtime.freeMemory();
  }

  private RecrawlSchedulerBenchmark() {}
}
