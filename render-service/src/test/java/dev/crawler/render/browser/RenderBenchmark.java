package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.render.SiteLoader;
import dev.crawler.render.TestSite;
import dev.crawler.render.TestSite.Page;
import dev.crawler.render.domain.RenderOutcome;
import dev.crawler.render.domain.RenderSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The renderer's cost, measured from outside the browser (prints figures; not a test):
 *
 * <ul>
 *   <li>start-up: from launch to the first protocol answer, and the browser's memory then;
 *   <li>throughput: pages of a script-built site (links built by a script, text from a fetch() of
 *       JSON) rendered with several at once; the browser's CPU per page from {@code /proc/PID/stat}
 *       of the browser and every process under it (exited renderers' time counted through their
 *       parent's {@code cutime}), and its peak memory, as the sum of RSS (shared pages counted in
 *       each process) and of PSS ({@code smaps_rollup}, shared pages divided);
 *   <li>isolation: a tab kept per origin against a browser context per page, and tabs kept when the
 *       origins take turns (8 origins, more than the tabs kept).
 * </ul>
 *
 * <p>Arguments: the browser's executable, the pages rendered (default 100), pages at once (default
 * 4), the quiet window in ms (default 500). Run it pinned to one core ({@code taskset -c 0 java
 * ...}) for the figure per core: the browser inherits the JVM's affinity.
 */
public final class RenderBenchmark {

  private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

  private RenderBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path browser = Path.of(args[0]);
    int pages = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int atOnce = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int quietMillis = args.length > 3 ? Integer.parseInt(args[3]) : 500;
    Path profiles = Files.createTempDirectory("render-bench");
    RenderSettings settings =
        RenderSettings.builder(browser)
            .profileRoot(profiles)
            .quietWindow(Duration.ofMillis(quietMillis))
            .maxPagesAtOnce(atOnce)
            .pagesPerBrowser(100_000)
            .build();
    System.out.printf(
        Locale.ROOT,
        "%s: %d cores visible, load average %s%n",
        browser,
        Runtime.getRuntime().availableProcessors(),
        Files.readString(Path.of("/proc/loadavg")).strip());
    startUp(settings);
    List<TestSite> sites = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        sites.add(serve(new TestSite()));
      }
      throughput("one origin, tabs reused", settings, sites.subList(0, 1), pages);
      throughput(
          "one origin, a context per page",
          settings.toBuilder().reuseTabs(false).build(),
          sites.subList(0, 1),
          pages);
      throughput("8 origins in turn, tabs reused", settings, sites, pages);
    } finally {
      sites.forEach(TestSite::close);
    }
    Profiles.delete(profiles);
  }

  private static void startUp(RenderSettings settings) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Long> millis = new ArrayList<>();
    long pss = 0;
    long rss = 0;
    long cpu = 0;
    int processes = 0;
    int runs = 5;
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      Browser browser = Browser.launch(settings, json, Instant.now());
      millis.add((System.nanoTime() - start) / 1_000_000);
      Figures figures = Figures.of(browser.pid());
      pss += figures.pssKb();
      rss += figures.rssKb();
      cpu += figures.cpuMillis();
      processes = Math.max(processes, figures.processes());
      browser.stop();
    }
    System.out.printf(
        Locale.ROOT,
        "start-up: %s ms (to the first answer); then %d processes, PSS %d MiB, RSS %d MiB,"
            + " CPU %d ms%n",
        millis,
        processes,
        pss / runs / 1024,
        rss / runs / 1024,
        cpu / runs);
  }

  private static TestSite serve(TestSite site) {
    return site.serve(
            "/app",
            Page.html(
                "<!DOCTYPE html><html><head><title>app</title></head><body><div id=\"app\"></div>"
                    + "<p id=\"out\">loading</p><script>"
                    + "const app = document.getElementById('app');"
                    + "for (let i = 0; i < 50; i++) { const a = document.createElement('a');"
                    + " a.href = '/item/' + i; a.textContent = 'item ' + i; app.appendChild(a); }"
                    + "fetch('/data.json').then(r => r.json()).then(d => {"
                    + " document.getElementById('out').textContent = d.text; });"
                    + "</script></body></html>"))
        .serve(
            "/data.json",
            Page.of("application/json", "{\"text\":\"" + "text from the JSON ".repeat(20) + "\"}"));
  }

  private static void throughput(
      String name, RenderSettings settings, List<TestSite> sites, int pages) throws Exception {
    try (Renderer renderer = new Renderer(settings, InstantSource.system())) {
      // warm: the browser started, its first renderers made
      for (int i = 0; i < settings.maxPagesAtOnce() * 2; i++) {
        TestSite site = sites.get(i % sites.size());
        renderer.render(site.url("/app"), 0, new SiteLoader(site.origin())).join();
      }
      long pid = renderer.browserPid().orElseThrow();
      Figures before = Figures.of(pid);
      long jvmBefore = jvmCpuMillis();
      PeakMemory peak = new PeakMemory(pid);
      long start = System.nanoTime();
      List<CompletableFuture<RenderOutcome>> renders = new ArrayList<>();
      for (int i = 0; i < pages; i++) {
        TestSite site = sites.get(i % sites.size());
        renders.add(renderer.render(site.url("/app"), 0, new SiteLoader(site.origin())));
      }
      int rendered = 0;
      for (CompletableFuture<RenderOutcome> render : renders) {
        if (render.join() instanceof RenderOutcome.Rendered page
            && page.html().contains("item 49")
            && page.html().contains("text from the JSON")) {
          rendered++;
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Figures after = Figures.of(pid);
      peak.stop();
      long jvm = jvmCpuMillis() - jvmBefore;
      System.out.printf(
          Locale.ROOT,
          "%s: %d of %d pages rendered whole in %.1f s, %d at once: %.2f pages/s;"
              + " browser CPU %.1f ms/page, JVM CPU (site, loader, protocol) %.1f ms/page;"
              + " peak PSS %d MiB, peak RSS %d MiB (sum over %d processes at most)%n",
          name,
          rendered,
          pages,
          seconds,
          settings.maxPagesAtOnce(),
          pages / seconds,
          (after.cpuMillis() - before.cpuMillis()) / (double) pages,
          jvm / (double) pages,
          peak.pssKb.get() / 1024,
          peak.rssKb.get() / 1024,
          peak.processes.get());
    }
  }

  private static long jvmCpuMillis() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
  }

  /** The browser's processes' CPU and memory at one moment. */
  record Figures(long cpuMillis, long rssKb, long pssKb, int processes) {

    static Figures of(long pid) {
      List<ProcessHandle> all =
          ProcessHandle.of(pid)
              .map(root -> Stream.concat(Stream.of(root), root.descendants()).toList())
              .orElse(List.of());
      long ticks = 0;
      long rss = 0;
      long pss = 0;
      for (ProcessHandle process : all) {
        Path proc = Path.of("/proc", Long.toString(process.pid()));
        try {
          String stat = Files.readString(proc.resolve("stat"), StandardCharsets.UTF_8);
          String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          // fields from the state on: utime 11, stime 12, cutime 13, cstime 14 (0-based here)
          for (int f = 11; f <= 14; f++) {
            ticks += Long.parseLong(fields[f]);
          }
          rss += kilobytes(proc.resolve("status"), "VmRSS:");
          pss += kilobytes(proc.resolve("smaps_rollup"), "Pss:");
        } catch (IOException | RuntimeException e) {
          // the process ended meanwhile
        }
      }
      return new Figures(ticks * 1000 / TICKS_PER_SECOND, rss, pss, all.size());
    }

    private static long kilobytes(Path file, String field) throws IOException {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith(field)) {
          return Long.parseLong(line.substring(field.length()).strip().split("\\s+")[0]);
        }
      }
      return 0;
    }
  }

  /** Samples the browser's memory every 50 ms, keeping the peaks. */
  private static final class PeakMemory {
    final AtomicLong rssKb = new AtomicLong();
    final AtomicLong pssKb = new AtomicLong();
    final AtomicLong processes = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

    PeakMemory(long pid) {
      sampler.scheduleAtFixedRate(
          () -> {
            Figures now = Figures.of(pid);
            rssKb.accumulateAndGet(now.rssKb(), Math::max);
            pssKb.accumulateAndGet(now.pssKb(), Math::max);
            processes.accumulateAndGet(now.processes(), Math::max);
          },
          0,
          50,
          TimeUnit.MILLISECONDS);
    }

    void stop() throws InterruptedException {
      sampler.shutdown();
      sampler.awaitTermination(1, TimeUnit.SECONDS);
    }
  }
}
