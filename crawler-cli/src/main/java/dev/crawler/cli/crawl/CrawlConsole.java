package dev.crawler.cli.crawl;

import dev.crawler.events.Outcome;
import dev.crawler.frontier.FrontierProgress;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a crawl prints on standard output: a line as it starts, a progress line (rewritten in place
 * on a terminal, every {@link #PLAIN_PROGRESS_INTERVAL} otherwise) and the summary. The services'
 * logs go elsewhere (standard error, and the crawl's log file).
 */
final class CrawlConsole {

  /** How often a progress line is printed when the output is not a terminal. */
  static final Duration PLAIN_PROGRESS_INTERVAL = Duration.ofSeconds(5);

  private final PrintStream out;
  private final boolean isTerminal;
  private long lastPlainLine = System.nanoTime();

  CrawlConsole(PrintStream out, boolean isTerminal) {
    this.out = out;
    this.isTerminal = isTerminal;
  }

  void startingCluster(Path dataDir) {
    out.println("Starting the embedded Kafka broker and schema registry in " + dataDir + " ...");
  }

  void crawling(int seeds, Duration startUp) {
    out.println("Crawling from " + seeds + " seed(s), started in " + startUp.toMillis() + " ms.");
  }

  void progress(FrontierProgress progress, CrawlEvents events, Duration crawling) {
    double seconds = Math.max(0.001, crawling.toMillis() / 1000.0);
    String line =
        String.format(
            Locale.ROOT,
            "fetched %d | queued %d | paused %d | in flight %d | %.1f pages/s | errors %d | documents %d",
            events.fetched(),
            progress.queued(),
            progress.paused(),
            progress.inFlight(),
            events.fetched() / seconds,
            events.errors(),
            events.upserts());
    if (isTerminal) {
      out.print("\r" + line + "   ");
      out.flush();
    } else if (System.nanoTime() - lastPlainLine >= PLAIN_PROGRESS_INTERVAL.toNanos()) {
      lastPlainLine = System.nanoTime();
      out.println(line);
    }
  }

  /** Ends the progress line a terminal rewrites in place. */
  void progressOver() {
    if (isTerminal) {
      out.println();
    }
  }

  /** What the crawl did, and where its files are. */
  record Summary(
      Duration crawling,
      Duration startUp,
      Duration shutDown,
      Optional<Path> documents,
      Optional<Path> crawlLog,
      Optional<Path> log) {}

  void summary(CrawlEvents events, Summary summary) {
    long fetched = events.fetched();
    double seconds = Math.max(0.001, summary.crawling().toMillis() / 1000.0);
    out.println();
    out.println("Outcome                  URLs");
    events.outcomeCounts().entrySet().stream()
        .filter(entry -> entry.getValue() > 0)
        .sorted(
            Map.Entry.<Outcome, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(entry -> out.printf(Locale.ROOT, "%-22s %6d%n", entry.getKey(), entry.getValue()));
    out.println("-----------------------------");
    out.printf(Locale.ROOT, "%-22s %6d%n", "pages fetched", fetched);
    out.printf(
        Locale.ROOT,
        "%-22s %6d upserts, %d deletes%n",
        "documents",
        events.upserts(),
        events.deletes());
    out.printf(
        Locale.ROOT,
        "%-22s %6.1f s (start-up %.1f s, shut-down %.1f s)%n",
        "elapsed",
        seconds,
        summary.startUp().toMillis() / 1000.0,
        summary.shutDown().toMillis() / 1000.0);
    out.printf(Locale.ROOT, "%-22s %6.1f%n", "pages/s", fetched / seconds);
    out.printf(
        Locale.ROOT,
        "%-22s %6d MB peak resident (heap %d MB)%n",
        "memory",
        peakResidentMegabytes(),
        heapUsedMegabytes());
    summary.documents().ifPresent(path -> out.println("documents written to " + path));
    summary.crawlLog().ifPresent(path -> out.println("crawl log written to " + path));
    summary.log().ifPresent(path -> out.println("services' log written to " + path));
  }

  private static long heapUsedMegabytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
  }

  /** The peak resident set size of this JVM (Linux), or 0 where the system does not say. */
  private static long peakResidentMegabytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return 0;
  }
}
