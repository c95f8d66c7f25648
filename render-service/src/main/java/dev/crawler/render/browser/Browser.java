package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.render.domain.RenderSettings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running browser: its process, its protocol connection, its tabs and the pages rendering in
 * them. Each tab has a browser context of its own ({@code Target.createBrowserContext}: cookies,
 * storage, cache apart) and serves one origin; the first page target in a context is the tab's, any
 * later one a window its page opened, closed at once. Idle tabs are kept, at most {@link
 * RenderSettings#maxPagesAtOnce} of them, for their origin's next page; with {@link
 * RenderSettings#reuseTabs} off every page gets a tab of its own. Downloads are denied.
 * Thread-safe.
 */
final class Browser {

  private static final Logger log = LoggerFactory.getLogger(Browser.class);

  /** How long a browser may take to exit once asked, before it is killed. */
  static final Duration EXIT_GRACE = Duration.ofSeconds(3);

  private final BrowserProcess process;
  private final CdpConnection connection;
  private final Instant startedAt;
  private final String version;

  /** The most pages a tab renders before it is replaced: what a renderer leaks stays bounded. */
  static final int PAGES_PER_TAB = 50;

  private final RenderSettings settings;
  private final Map<String, Context> contexts = new ConcurrentHashMap<>();
  private final Set<PageRender> pages = ConcurrentHashMap.newKeySet();
  private final Deque<Tab> idle = new ArrayDeque<>(); // guarded by itself
  private final AtomicInteger pagesStarted = new AtomicInteger();
  private final AtomicInteger pagesOpen = new AtomicInteger();
  private final AtomicBoolean broken = new AtomicBoolean();
  private final Duration commandTimeout;

  /** A browser context of a tab: which of its page targets is the tab's. */
  private static final class Context {
    private @Nullable String ownTarget;
    private volatile @Nullable Tab tab;

    /** The first page target in the context is the tab's; returns whether this one is. */
    synchronized boolean claim(String targetId) {
      if (ownTarget == null) {
        ownTarget = targetId;
      }
      return ownTarget.equals(targetId);
    }
  }

  private Browser(
      BrowserProcess process,
      CdpConnection connection,
      Instant startedAt,
      String version,
      RenderSettings settings) {
    this.process = process;
    this.connection = connection;
    this.startedAt = startedAt;
    this.version = version;
    this.settings = settings;
    this.commandTimeout = settings.commandTimeout();
  }

  /**
   * Starts a browser and waits until it answers (blocks up to the start timeout: call it off the
   * protocol's threads).
   *
   * @throws IOException when it cannot be started or does not answer in time; the message ends with
   *     the last lines of its standard error
   */
  static Browser launch(RenderSettings settings, ObjectMapper json, Instant now)
      throws IOException {
    BrowserProcess process = BrowserProcess.start(settings);
    CdpConnection connection =
        new CdpConnection(
            process.fromBrowser(),
            process.toBrowser(),
            json,
            maxMessageBytes(settings),
            Long.toString(process.pid()));
    connection.start();
    try {
      JsonNode answer =
          connection
              .send("Browser.getVersion", connection.params(), null, settings.startTimeout())
              .join();
      Browser browser =
          new Browser(process, connection, now, answer.path("product").asText("?"), settings);
      browser.watch();
      return browser;
    } catch (CompletionException e) {
      connection.close();
      process.stop(EXIT_GRACE);
      String stderr = process.stderrTail();
      throw new IOException(
          "the browser "
              + settings.browser()
              + " did not answer: "
              + e.getCause()
              + (stderr.isEmpty() ? "" : "\n" + stderr),
          e.getCause());
    }
  }

  /**
   * The largest protocol message read: the DOM read at its limit, as JSON escapes may write it (six
   * bytes a character), and room for the rest.
   */
  static int maxMessageBytes(RenderSettings settings) {
    return (int) Math.min(Integer.MAX_VALUE - 16, 6L * settings.maxDomBytes() + (1 << 20));
  }

  private void watch() {
    connection.onEvents(CdpConnection.BROWSER, this::onEvent);
    ObjectNode discover = connection.params();
    discover.put("discover", true);
    connection.tell("Target.setDiscoverTargets", discover, null, commandTimeout);
    ObjectNode downloads = connection.params();
    downloads.put("behavior", "deny");
    connection.tell("Browser.setDownloadBehavior", downloads, null, commandTimeout);
    connection
        .closed()
        .thenAccept(
            reason -> {
              if (broken.compareAndSet(false, true)) {
                log.warn("browser {} lost: {}", pid(), reason);
              }
              for (PageRender page : pages) {
                page.browserLost(reason);
              }
            });
  }

  private void onEvent(String method, JsonNode params) {
    if (!method.equals("Target.targetCreated")) {
      return;
    }
    JsonNode info = params.path("targetInfo");
    if (!info.path("type").asText().equals("page")) {
      return;
    }
    Context context = contexts.get(info.path("browserContextId").asText(""));
    String targetId = info.path("targetId").asText();
    if (context != null && !context.claim(targetId)) {
      closeTarget(targetId); // a window the page opened
      Tab tab = context.tab;
      if (tab != null) {
        tab.popupClosed();
      }
    }
  }

  /**
   * A tab for a page of {@code origin}: an idle one of that origin, or a new one (the oldest idle
   * tab goes when more than {@link RenderSettings#maxPagesAtOnce} are idle, in {@link #putBack}).
   */
  CompletableFuture<Tab> tabFor(String origin) {
    if (settings.reuseTabs()) {
      synchronized (idle) {
        for (Iterator<Tab> tabs = idle.iterator(); tabs.hasNext(); ) {
          Tab tab = tabs.next();
          if (tab.origin().equals(origin) && !tab.hasCrashed()) {
            tabs.remove();
            return CompletableFuture.completedFuture(tab);
          }
        }
      }
    }
    return Tab.open(this, settings, origin, contextId -> contexts.put(contextId, new Context()))
        .thenApply(
            tab -> {
              Context context = contexts.get(tab.contextId());
              if (context != null) {
                context.tab = tab;
              }
              return tab;
            });
  }

  /**
   * Takes a tab back from its page: blanked and kept idle when {@code sound} and tabs are reused,
   * else disposed of; the oldest idle tab goes when more than {@link RenderSettings#maxPagesAtOnce}
   * are idle. Completes when the tab is kept or gone.
   *
   * @param documentOrigin the origin of the document the page showed, whose storage is cleared
   */
  CompletableFuture<Void> putBack(Tab tab, boolean sound, String documentOrigin) {
    if (!sound
        || !settings.reuseTabs()
        || tab.hasCrashed()
        || tab.pages() >= PAGES_PER_TAB
        || !isUsable()) {
      return close(tab);
    }
    return tab.blank(documentOrigin)
        .handle((blanked, failure) -> failure)
        .thenCompose(
            failure -> {
              if (failure != null) {
                return close(tab);
              }
              Tab evicted = null;
              synchronized (idle) {
                idle.addLast(tab);
                if (idle.size() > settings.maxPagesAtOnce()) {
                  evicted = idle.removeFirst();
                }
              }
              if (evicted != null) {
                close(evicted);
              }
              return CompletableFuture.completedFuture(null);
            });
  }

  /** Disposes of a tab's context; a browser that does not answer is marked broken. */
  private CompletableFuture<Void> close(Tab tab) {
    if (!connection.isOpen()) {
      contexts.remove(tab.contextId());
      return CompletableFuture.completedFuture(null);
    }
    return tab.dispose()
        .handle(
            (disposed, failure) -> {
              contexts.remove(tab.contextId());
              if (failure != null && connection.isOpen()) {
                markBroken("disposing of a tab: " + PageRender.describe(failure));
              }
              return null;
            });
  }

  /** Tabs kept idle now. */
  int idleTabs() {
    synchronized (idle) {
      return idle.size();
    }
  }

  void closeTarget(String targetId) {
    ObjectNode params = connection.params();
    params.put("targetId", targetId);
    connection.tell("Target.closeTarget", params, null, commandTimeout);
  }

  CdpConnection connection() {
    return connection;
  }

  long pid() {
    return process.pid();
  }

  String version() {
    return version;
  }

  /** The browser's major version, {@code 156} of {@code HeadlessChrome/156.0.8078.108}. */
  String majorVersion() {
    int slash = version.indexOf('/');
    int dot = version.indexOf('.', slash + 1);
    return slash < 0 || dot < 0 ? "" : version.substring(slash + 1, dot);
  }

  Instant startedAt() {
    return startedAt;
  }

  /** Counts a page started in this browser; returns the count. */
  int pageStarted(PageRender page) {
    pages.add(page);
    pagesOpen.incrementAndGet();
    return pagesStarted.incrementAndGet();
  }

  /** Counts a page ended; returns how many are still open. */
  int pageEnded(PageRender page) {
    pages.remove(page);
    return pagesOpen.decrementAndGet();
  }

  int pagesStarted() {
    return pagesStarted.get();
  }

  int pagesOpen() {
    return pagesOpen.get();
  }

  /** Marks the browser as unfit for more pages: it stopped answering, or its pipe closed. */
  void markBroken(String reason) {
    if (broken.compareAndSet(false, true)) {
      log.warn("browser {} replaced: {}", pid(), reason);
    }
  }

  boolean isUsable() {
    return !broken.get() && connection.isOpen() && process.isAlive();
  }

  /** The last lines the browser wrote to its standard error. */
  String stderrTail() {
    return process.stderrTail();
  }

  /**
   * Ends the browser: closes its pipe (it exits by itself), kills what remains after a grace,
   * deletes its profile. Blocks up to twice the grace: call it off the protocol's threads.
   */
  void stop() {
    broken.set(true);
    connection.tell("Browser.close", connection.params(), null, EXIT_GRACE);
    connection.close();
    process.stop(EXIT_GRACE);
  }

  /** Completes when the process has exited. */
  CompletableFuture<Process> onExit() {
    return process.onExit();
  }
}
