package dev.crawler.parser.bench;

import dev.crawler.parser.domain.LanguageDetection;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Prints how often the page parser names the language a page declares, and what the language
 * detection costs per page, on the HTML files of a directory whose pages declare their language
 * ({@code <html lang>}), such as the Apache HTTP Server manual's translations (Debian's {@code
 * apache2-doc}): {@code java ... LanguageBenchmark DIR [ROUNDS [EVICT_MB]]}. Symbolic links (the
 * manual links an untranslated page to the English one) are left out.
 *
 * <p>Per declared language: pages, how many the detector named that language, named another, or
 * left unnamed, and how many the published language ({@code best()}) is the declared one. Then the
 * CPU of {@link LanguageDetection#detectUtf8} alone over every page's text, per page, in rounds
 * (the first warms the compiler up).
 *
 * <p>With {@code EVICT_MB}, every detection is preceded by writing that many megabytes (a cache
 * line in each 64 bytes), outside the measured time: in a crawl the rest of a page's work (its
 * parse, its text, the allocations of the services beside it) evicts the detector's tables from the
 * processor's caches between two pages, and a detection then waits on memory for most of its
 * lookups. Without it the tables stay cached, and the figure is the detection's floor.
 */
public final class LanguageBenchmark {

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    byte[] evicting = new byte[args.length > 2 ? Integer.parseInt(args[2]) << 20 : 0];
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(f -> f.toString().endsWith(".html"))
              .filter(f -> !Files.isSymbolicLink(f))
              .sorted()
              .toList();
    }
    PageParser parser = PageParser.withDefaults();
    Map<String, int[]> byLanguage = new TreeMap<>(); // pages, right, wrong, none, published right
    Map<String, Map<String, Integer>> wrongAs = new TreeMap<>();
    List<byte[]> texts = new ArrayList<>();
    for (Path file : files) {
      Page page =
          new Page(
              "http://manual/" + root.relativize(file).toString().replace('\\', '/'),
              Map.of(),
              Files.readAllBytes(file),
              Optional.of("text/html"),
              Optional.empty());
      if (!(parser.parse(page) instanceof ParseResult.Parsed parsed)) {
        continue;
      }
      texts.add(parsed.utf8Text());
      Optional<String> declared = parsed.language().declared().map(LanguageBenchmark::primary);
      if (declared.isEmpty()) {
        continue;
      }
      int[] counts = byLanguage.computeIfAbsent(declared.get(), k -> new int[5]);
      counts[0]++;
      Optional<String> detected = parsed.language().detected().map(LanguageBenchmark::primary);
      if (detected.isEmpty()) {
        counts[3]++;
      } else if (detected.equals(declared)) {
        counts[1]++;
      } else {
        counts[2]++;
        wrongAs
            .computeIfAbsent(declared.get(), k -> new TreeMap<>())
            .merge(detected.get(), 1, Integer::sum);
      }
      if (parsed.language().best().map(LanguageBenchmark::primary).equals(declared)) {
        counts[4]++;
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-6s %6s %9s %7s %6s %10s  wrong as%n",
        "lang",
        "pages",
        "detected",
        "other",
        "none",
        "published");
    int[] total = new int[5];
    for (Map.Entry<String, int[]> row : byLanguage.entrySet()) {
      int[] c = row.getValue();
      System.out.printf(
          Locale.ROOT,
          "%-6s %6d %9d %7d %6d %10d  %s%n",
          row.getKey(),
          c[0],
          c[1],
          c[2],
          c[3],
          c[4],
          wrongAs.getOrDefault(row.getKey(), Map.of()));
      for (int i = 0; i < 5; i++) {
        total[i] += c[i];
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%-6s %6d %9d %7d %6d %10d%n",
        "all",
        total[0],
        total[1],
        total[2],
        total[3],
        total[4]);

    long[] sizes = texts.stream().mapToLong(t -> t.length).sorted().toArray();
    System.out.printf(
        Locale.ROOT,
        "%d texts, median %d bytes, 90th percentile %d bytes%n",
        sizes.length,
        sizes[sizes.length / 2],
        sizes[sizes.length * 9 / 10]);
    LanguageDetection detection = LanguageDetection.shared();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] perPage = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      long spent = 0;
      int named = 0;
      for (byte[] text : texts) {
        for (int at = 0; at < evicting.length; at += 64) {
          evicting[at]++;
        }
        long before = threads.getCurrentThreadCpuTime();
        named += detection.detectUtf8(text).isPresent() ? 1 : 0;
        spent += threads.getCurrentThreadCpuTime() - before;
      }
      perPage[round] = spent / 1e6 / texts.size();
      System.out.printf(
          Locale.ROOT,
          "round %d: %.4f ms CPU per page (%d pages, %d named%s)%n",
          round + 1,
          perPage[round],
          texts.size(),
          named,
          evicting.length > 0 ? ", " + (evicting.length >> 20) + " MB written before each" : "");
    }
    double[] warm = Arrays.copyOfRange(perPage, Math.min(1, rounds - 1), rounds);
    Arrays.sort(warm);
    System.out.printf(
        Locale.ROOT, "median after the first round: %.4f ms CPU per page%n", warm[warm.length / 2]);
  }

  private static String primary(String tag) {
    String lower = tag.strip().toLowerCase(Locale.ROOT);
    int cut = lower.indexOf('-');
    return cut < 0 ? lower : lower.substring(0, cut);
  }
}
