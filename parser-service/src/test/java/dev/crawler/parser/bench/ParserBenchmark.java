package dev.crawler.parser.bench;

import dev.crawler.parser.domain.MainContent;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Prints what the page parser costs per page, the step that takes most of a crawl's CPU, on the
 * HTML files of a directory (a site saved with its directory layout): {@code java
 * -XX:TieredStopAtLevel=1 ... ParserBenchmark DIR [PAGES] [THREADS]}, {@code PAGES} (2,000 by
 * default) spread evenly over the directory's files (the crawler's JVM compiles with C1 only, so
 * the same flag gives the crawl's figures).
 *
 * <p>First the CPU per page with every part of a document on (the defaults), then with each part
 * that costs per page switched off alone (language detection, markdown, structured data), then all
 * three off, then the whole page's text instead of its main content ({@code content-drop: none}),
 * then with pages built by scripts told apart ({@code render: auto}): the median of rounds 2 to 7
 * (the first warms the compiler up), the variants taking turns within each round; with each, the
 * bytes the parsing thread allocates per page, which a crawl pays again in its young collections.
 * Then the pages per second of {@code THREADS} threads (default: the cores) parsing the pages side
 * by side, as the parser's stream threads do, each with its own parser.
 */
public final class ParserBenchmark {

  private static final int ROUNDS = 7;

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    int limit = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    int threads =
        args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
    List<Page> pages = pagesOf(root, limit);
    long bytes = pages.stream().mapToLong(page -> page.body().length).sum();
    System.out.printf(
        Locale.ROOT, "%d pages, %.1f KB on average%n", pages.size(), bytes / 1024.0 / pages.size());

    ParseOptions all = ParseOptions.DEFAULTS;
    Map<String, ParseOptions> variants = new LinkedHashMap<>();
    variants.put("every part (defaults)", all);
    variants.put("without language detection", with(all, false, true, true));
    variants.put("without markdown", with(all, true, false, true));
    variants.put("without structured data", with(all, true, true, false));
    variants.put("without the three", with(all, false, false, false));
    variants.put("without main content", whole(all));
    variants.put("with rendering detection", detecting(all));
    PageParser parser = PageParser.withDefaults();
    // the variants take turns within each round, so a machine that drifts slows all of them alike
    List<String> names = List.copyOf(variants.keySet());
    double[][] perPage = new double[names.size()][ROUNDS];
    double[][] allocated = new double[names.size()][ROUNDS];
    long[] links = new long[names.size()];
    for (int round = 0; round < ROUNDS; round++) {
      for (int v = 0; v < names.size(); v++) {
        ParseOptions options = variants.get(names.get(v));
        long cpuBefore = threadCpu();
        long allocatedBefore = threadAllocated();
        links[v] = 0;
        for (Page page : pages) {
          if (parser.parse(page, options) instanceof ParseResult.Parsed parsed) {
            links[v] += parsed.links().size();
          }
        }
        perPage[v][round] = (threadCpu() - cpuBefore) / 1e6 / pages.size();
        allocated[v][round] = (threadAllocated() - allocatedBefore) / 1024.0 / pages.size();
      }
    }
    double everything = medianAfterFirst(perPage[0]);
    for (int v = 0; v < names.size(); v++) {
      double median = medianAfterFirst(perPage[v]);
      System.out.printf(
          Locale.ROOT,
          "%-28s %.3f ms CPU per page%s, %.0f KB allocated per page (%d links)%n",
          names.get(v),
          median,
          v == 0 ? "" : String.format(Locale.ROOT, ", %+.3f ms", median - everything),
          medianAfterFirst(allocated[v]),
          links[v]);
    }

    System.out.printf(
        Locale.ROOT, "%d threads, every part: %s%n", threads, sideBySide(pages, threads));
  }

  /** Pages per second and CPU per page of {@code threads} threads sharing out the pages. */
  private static String sideBySide(List<Page> pages, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      double[] rates = new double[ROUNDS];
      double[] cpu = new double[ROUNDS];
      for (int round = 0; round < ROUNDS; round++) {
        AtomicInteger next = new AtomicInteger();
        AtomicLong cpuNanos = new AtomicLong();
        long started = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          workers.add(
              pool.submit(
                  () -> {
                    PageParser parser = PageParser.withDefaults();
                    long cpuBefore = threadCpu();
                    for (int i = next.getAndIncrement();
                        i < pages.size();
                        i = next.getAndIncrement()) {
                      parser.parse(pages.get(i));
                    }
                    cpuNanos.addAndGet(threadCpu() - cpuBefore);
                  }));
        }
        for (Future<?> worker : workers) {
          worker.get();
        }
        rates[round] = pages.size() / ((System.nanoTime() - started) / 1e9);
        cpu[round] = cpuNanos.get() / 1e6 / pages.size();
      }
      return String.format(
          Locale.ROOT,
          "%.0f pages/s, %.3f ms CPU per page",
          medianAfterFirst(rates),
          medianAfterFirst(cpu));
    } finally {
      pool.shutdownNow();
    }
  }

  private static ParseOptions with(
      ParseOptions options, boolean language, boolean markdown, boolean structuredData) {
    return variant(options, options.mainContent(), language, markdown, structuredData, false);
  }

  /** The whole page's text ({@code content-drop: none}) instead of its main content. */
  private static ParseOptions whole(ParseOptions options) {
    return variant(options, MainContent.WHOLE_PAGE, true, true, true, false);
  }

  /** Pages built by scripts told apart ({@code render: auto}). */
  private static ParseOptions detecting(ParseOptions options) {
    return variant(options, options.mainContent(), true, true, true, true);
  }

  private static ParseOptions variant(
      ParseOptions options,
      MainContent mainContent,
      boolean language,
      boolean markdown,
      boolean structuredData,
      boolean rendering) {
    return new ParseOptions(
        options.canonicalWithinDomain(),
        options.checksumIgnore(),
        options.metadataChecksumHeaders(),
        options.obeysRobotsMeta(),
        options.obeysLinkNofollow(),
        options.pagination(),
        mainContent,
        language,
        markdown,
        structuredData,
        rendering);
  }

  /** At most {@code limit} pages, spread evenly over the directory's HTML files in path order. */
  private static List<Page> pagesOf(Path root, int limit) throws IOException {
    List<Path> all;
    try (Stream<Path> files = Files.walk(root, FileVisitOption.FOLLOW_LINKS)) {
      all = files.filter(f -> f.toString().endsWith(".html")).sorted().toList();
    }
    List<Page> pages = new ArrayList<>();
    for (int i = 0; i < Math.min(limit, all.size()); i++) {
      Path file = all.get((int) ((long) i * all.size() / Math.min(limit, all.size())));
      String url = "http://" + root.relativize(file).toString().replace('\\', '/');
      pages.add(
          new Page(
              url, Map.of(), Files.readAllBytes(file), Optional.of("text/html"), Optional.empty()));
    }
    return pages;
  }

  private static double medianAfterFirst(double[] rounds) {
    double[] warm = Arrays.copyOfRange(rounds, 1, rounds.length);
    Arrays.sort(warm);
    return warm.length % 2 == 1
        ? warm[warm.length / 2]
        : (warm[warm.length / 2 - 1] + warm[warm.length / 2]) / 2;
  }

  /** The bytes the thread allocated so far: what makes the collector run in a crawl. */
  private static long threadAllocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  private static long threadCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return threads.getCurrentThreadCpuTime();
  }
}
