package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.render.domain.RenderOutcome;
import dev.crawler.render.domain.RenderOutcome.FailureReason;
import dev.crawler.render.domain.RenderSettings;
import dev.crawler.render.domain.RenderStats;
import dev.crawler.render.domain.RequestLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders pages in a headless browser it keeps: the public face of this package. One browser serves
 * at most {@link RenderSettings#maxPagesAtOnce} pages at once, more wait their turn; each page
 * renders in a tab of its origin, a browser context of its own kept between the origin's pages
 * ({@link RenderSettings#reuseTabs}), so no cookie or storage passes between origins. A browser is
 * started at the first render, replaced when it dies or stops answering, and retired after {@link
 * RenderSettings#pagesPerBrowser} pages or {@link RenderSettings#browserMaxAge} (it ends when its
 * last page does), so a leak in the browser cannot grow without bound. Profiles left by an earlier
 * process are deleted when a renderer is made.
 *
 * <p>Thread-safe. A render's future never completes exceptionally, and may complete on the
 * renderer's protocol thread: its dependants must not block (use the {@code *Async} variants to
 * block). A render ends within {@link RenderSettings#maxWait}, a poll interval and 2 seconds more
 * from its turn, plus the time a browser takes to start when none is running.
 */
public final class Renderer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Renderer.class);

  private final RenderSettings settings;
  private final InstantSource clock;
  private final ObjectMapper json = new ObjectMapper();
  private final ScheduledExecutorService timer;
  private final ExecutorService launcher;

  // guarded by this
  private @Nullable CompletableFuture<Browser> current;
  private final Set<Browser> browsers = new HashSet<>();
  private final Deque<Waiting> waiting = new ArrayDeque<>();
  private final Set<PageRender> pages = new HashSet<>();
  private int rendering;
  private boolean closed;

  private record Waiting(
      String url,
      int maxRedirects,
      RequestLoader loader,
      CompletableFuture<RenderOutcome> result) {}

  /**
   * @param clock times renders, settling and the browsers' age
   */
  private final java.util.concurrent.atomic.AtomicLong browsersStarted =
      new java.util.concurrent.atomic.AtomicLong();

  public Renderer(RenderSettings settings, InstantSource clock) {
    this.settings = settings;
    this.clock = clock;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "render-timer");
              thread.setDaemon(true);
              return thread;
            });
    this.launcher =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "render-launcher");
              thread.setDaemon(true);
              return thread;
            });
    Profiles.removeStale(settings.profileRoot());
  }

  /**
   * Renders one page.
   *
   * @param url the page's absolute http(s) URL
   * @param maxRedirects redirects of the main document the browser follows; beyond them the
   *     redirect is returned as {@link RenderOutcome.NotRendered}
   * @param loader makes every request of this page
   */
  public CompletableFuture<RenderOutcome> render(
      String url, int maxRedirects, RequestLoader loader) {
    CompletableFuture<RenderOutcome> result = new CompletableFuture<>();
    String origin = PageRender.originOf(url);
    if (!origin.startsWith("http://") && !origin.startsWith("https://")) {
      result.complete(
          new RenderOutcome.Failed(
              FailureReason.NAVIGATION_FAILED, "not an http(s) URL", RenderStats.NONE, 0));
      return result;
    }
    synchronized (this) {
      if (closed) {
        result.complete(closedOutcome());
        return result;
      }
      waiting.add(new Waiting(url, maxRedirects, loader, result));
      drain();
    }
    return result;
  }

  /** The pid of the browser serving new pages, when one runs (for figures and tests). */
  public synchronized OptionalLong browserPid() {
    Browser browser = current == null ? null : current.getNow(null);
    return browser == null ? OptionalLong.empty() : OptionalLong.of(browser.pid());
  }

  /** Tabs kept idle for their origin's next page, in the browser serving new pages. */
  public synchronized int idleTabs() {
    Browser browser = current == null ? null : current.getNow(null);
    return browser == null ? 0 : browser.idleTabs();
  }

  /** Pages rendering now. */
  public synchronized int rendering() {
    return rendering;
  }

  /** Starts waiting renders while there is room. Holds the lock. */
  private void drain() {
    while (!closed && rendering < settings.maxPagesAtOnce() && !waiting.isEmpty()) {
      Waiting next = waiting.poll();
      rendering++;
      browser().whenComplete((browser, failure) -> startPage(next, browser, failure));
    }
  }

  /** The browser for the next page, started when there is none fit. Holds the lock. */
  private CompletableFuture<Browser> browser() {
    if (current != null) {
      if (current.isCompletedExceptionally()) {
        current = null;
      } else {
        Browser browser = current.getNow(null);
        if (browser != null && !isFit(browser)) {
          current = null;
          if (browser.pagesOpen() == 0) {
            stopLater(browser);
          }
        }
      }
    }
    if (current == null) {
      current = CompletableFuture.supplyAsync(this::launch, launcher);
    }
    return current;
  }

  private boolean isFit(Browser browser) {
    if (!browser.isUsable()) {
      return false;
    }
    if (browser.pagesStarted() >= settings.pagesPerBrowser()) {
      log.info("browser {} retired after {} pages", browser.pid(), browser.pagesStarted());
      return false;
    }
    if (Duration.between(browser.startedAt(), clock.instant()).compareTo(settings.browserMaxAge())
        >= 0) {
      log.info("browser {} retired after {}", browser.pid(), settings.browserMaxAge());
      return false;
    }
    return true;
  }

  /** How many browsers were started, replacements included. Thread-safe. */
  public long browsersStarted() {
    return browsersStarted.get();
  }

  private Browser launch() {
    browsersStarted.incrementAndGet();
    Instant start = clock.instant();
    try {
      Browser browser = Browser.launch(settings, json, start);
      log.info(
          "browser {} started in {} ms: {}",
          browser.pid(),
          Duration.between(start, clock.instant()).toMillis(),
          browser.version());
      boolean keep;
      synchronized (this) {
        keep = !closed;
        if (keep) {
          browsers.add(browser);
        }
      }
      if (!keep) {
        browser.stop();
        throw new IllegalStateException("the renderer was closed");
      }
      browser.onExit().thenRun(() -> exited(browser));
      return browser;
    } catch (IOException e) {
      log.warn("the browser could not be started: {}", e.getMessage());
      throw new UncheckedIOException(e);
    }
  }

  private void startPage(Waiting next, @Nullable Browser browser, @Nullable Throwable failure) {
    if (browser == null) {
      next.result()
          .complete(
              new RenderOutcome.Failed(
                  FailureReason.BROWSER_UNAVAILABLE,
                  PageRender.describe(failure),
                  RenderStats.NONE,
                  0));
      slotFreed();
      return;
    }
    PageRender page =
        new PageRender(
            browser, settings, next.url(), next.maxRedirects(), next.loader(), clock, timer);
    synchronized (this) {
      if (closed) {
        next.result().complete(closedOutcome());
        rendering--;
        return;
      }
      pages.add(page);
    }
    browser.pageStarted(page);
    page.outcome().thenAccept(next.result()::complete);
    page.tabReturned().thenRun(() -> pageGone(page, browser));
    page.start();
  }

  private void pageGone(PageRender page, Browser browser) {
    int open = browser.pageEnded(page);
    synchronized (this) {
      pages.remove(page);
      rendering--;
      Browser serving = current == null ? null : current.getNow(null);
      if (open == 0 && serving != browser && browsers.contains(browser)) {
        stopLater(browser);
      }
      drain();
    }
  }

  private synchronized void slotFreed() {
    rendering--;
    drain();
  }

  /** A browser's process ended, asked to or not: it is stopped for good (profile deleted). */
  private void exited(Browser browser) {
    synchronized (this) {
      if (current != null && current.getNow(null) == browser) {
        current = null;
      }
      if (!browsers.contains(browser)) {
        return;
      }
    }
    browser.markBroken("its process exited");
    stopLater(browser);
  }

  /** Stops a browser on the launcher's thread, once. */
  private void stopLater(Browser browser) {
    synchronized (this) {
      if (!browsers.remove(browser)) {
        return;
      }
    }
    if (!launcher.isShutdown()) {
      launcher.execute(browser::stop);
    } else {
      browser.stop();
    }
  }

  private RenderOutcome closedOutcome() {
    return new RenderOutcome.Failed(
        FailureReason.CLOSED, "the renderer is closed", RenderStats.NONE, 0);
  }

  /**
   * Ends every render still running or waiting ({@link FailureReason#CLOSED}) and stops the
   * browsers, killing what does not exit within a few seconds. Blocks until they are gone.
   */
  @Override
  public void close() {
    List<PageRender> running;
    List<Browser> stopping;
    CompletableFuture<Browser> starting;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      for (Waiting next : waiting) {
        next.result().complete(closedOutcome());
      }
      waiting.clear();
      running = new ArrayList<>(pages);
      starting = current;
      current = null;
    }
    running.forEach(PageRender::abandon);
    if (starting != null) {
      try {
        starting.get(settings.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        log.debug("the browser being started when the renderer closed: {}", e.toString());
      }
    }
    synchronized (this) {
      stopping = new ArrayList<>(browsers);
      browsers.clear();
    }
    stopping.forEach(Browser::stop);
    launcher.shutdown();
    timer.shutdownNow();
  }
}
