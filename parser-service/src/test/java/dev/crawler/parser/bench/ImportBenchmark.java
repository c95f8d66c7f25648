package dev.crawler.parser.bench;

import dev.crawler.parser.domain.FileImport;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.tika.TikaImporter;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Prints how many files per second one import process reads, per format, and what it costs: the CPU
 * of the import process and of the calling thread per file, and the peak resident memory of both
 * JVMs. Run as {@code java ... ImportBenchmark [FILES_PER_FORMAT]} (300 by default), on the
 * parser's test files.
 */
public final class ImportBenchmark {

  private static final Map<String, String> FILES = new LinkedHashMap<>();

  static {
    FILES.put("report.pdf", "application/pdf");
    FILES.put(
        "report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    FILES.put("report.odt", "application/vnd.oasis.opendocument.text");
    FILES.put("report.doc", "application/msword");
    FILES.put("report.rtf", "application/rtf");
    FILES.put("report.epub", "application/epub+zip");
    FILES.put("random bytes named .pdf", "application/pdf");
  }

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    Path work = Files.createTempDirectory("import-benchmark");
    PageParser parser = PageParser.withDefaults();
    try (TikaImporter importer =
        TikaImporter.start(
            new TikaImporter.Settings(
                work, 1, Duration.ofSeconds(30), 512, 1_000_000, 256L * 1024 * 1024))) {
      System.out.printf(
          Locale.ROOT,
          "%-24s %8s %10s %16s %16s%n",
          "format",
          "files/s",
          "ms/file",
          "import CPU ms",
          "caller CPU ms");
      for (Map.Entry<String, String> file : FILES.entrySet()) {
        byte[] body = bytes(file.getKey());
        String url = "http://bench.example/" + file.getKey().replace(' ', '-');
        Page page = new Page(url, Map.of(), body, Optional.of(file.getValue()), Optional.empty());
        for (int i = 0; i < 20; i++) {
          importOne(importer, parser, page);
        }
        long importCpu = childrenCpuMillis();
        long callerCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long started = System.nanoTime();
        boolean extracted = false;
        for (int i = 0; i < count; i++) {
          extracted = importOne(importer, parser, page);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "%-24s %8.0f %10.1f %16.1f %16.2f%s%n",
            file.getKey(),
            count / seconds,
            seconds * 1000 / count,
            (childrenCpuMillis() - importCpu) / (double) count,
            (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - callerCpu)
                / 1e6
                / count,
            extracted ? "" : "  (refused)");
      }
      System.out.printf(
          Locale.ROOT,
          "peak RSS: import process %d MB, calling JVM %d MB%n",
          childrenPeakRssKb() / 1024,
          peakRssKb(ProcessHandle.current().pid()) / 1024);
    }
  }

  private static boolean importOne(TikaImporter importer, PageParser parser, Page page) {
    FileImport imported =
        importer.importFile(page.url(), page.contentType().orElseThrow(), page.body());
    if (imported instanceof FileImport.Extracted file) {
      parser.parseFile(page, file);
      return true;
    }
    return false;
  }

  private static byte[] bytes(String file) throws IOException {
    if (file.startsWith("random")) {
      byte[] random = new byte[40_000];
      new Random(5).nextBytes(random);
      System.arraycopy("%PDF-1.4\n".getBytes(StandardCharsets.US_ASCII), 0, random, 0, 9);
      return random;
    }
    try (InputStream in = ImportBenchmark.class.getResourceAsStream("/files/" + file)) {
      return in.readAllBytes();
    }
  }

  /** The CPU time of this JVM's child processes (the import processes), in milliseconds. */
  private static long childrenCpuMillis() {
    return ProcessHandle.current()
        .descendants()
        .mapToLong(child -> child.info().totalCpuDuration().map(Duration::toMillis).orElse(0L))
        .sum();
  }

  private static long childrenPeakRssKb() {
    return ProcessHandle.current().descendants().mapToLong(c -> peakRssKb(c.pid())).max().orElse(0);
  }

  /** VmHWM of a process, from /proc (Linux), in kilobytes; 0 elsewhere. */
  private static long peakRssKb(long pid) {
    try {
      List<String> status = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"));
      for (String line : status) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or the process is gone
    }
    return 0;
  }
}
