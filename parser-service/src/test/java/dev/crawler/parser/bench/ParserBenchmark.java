package dev.crawler.parser.bench;

import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Prints how many pages per second one thread of the page parser handles, on the HTML files of a
 * directory (a site saved with its directory layout): {@code java ... ParserBenchmark DIR [PAGES]}.
 */
public final class ParserBenchmark {

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]);
    int limit = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    List<Page> pages = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file :
          (Iterable<Path>)
              files.filter(f -> f.toString().endsWith(".html")).limit(limit)::iterator) {
        String url = "http://" + root.relativize(file).toString().replace('\\', '/');
        pages.add(
            new Page(
                url,
                Map.of(),
                Files.readAllBytes(file),
                Optional.of("text/html"),
                Optional.of("UTF-8")));
      }
    }
    PageParser parser = PageParser.withDefaults();
    long links = 0;
    for (int round = 0; round < 3; round++) {
      long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      long started = System.nanoTime();
      links = 0;
      for (Page page : pages) {
        ParseResult result = parser.parse(page);
        if (result instanceof ParseResult.Parsed parsed) {
          links += parsed.links().size();
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpuMillis =
          (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore) / 1e6;
      System.out.printf(
          Locale.ROOT,
          "round %d: %d pages in %.2f s = %.0f pages/s, %.3f ms CPU per page, %d links%n",
          round + 1,
          pages.size(),
          seconds,
          pages.size() / seconds,
          cpuMillis / pages.size(),
          links);
    }
  }
}
