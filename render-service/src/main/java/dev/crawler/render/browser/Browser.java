package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.render.domain.RenderSettings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running browser: its process, its protocol connection, the pages rendering in it. Each page
 * has a browser context of its own ({@code Target.createBrowserContext}: cookies, storage, cache
 * apart), so the first page target in a context is the page's and any later one is a window the
 * page opened: it is closed at once. Downloads are denied. Thread-safe.
 */
final class Browser {

  private static final Logger log = LoggerFactory.getLogger(Browser.class);

  /** How long a browser may take to exit once asked, before it is killed. */
  static final Duration EXIT_GRACE = Duration.ofSeconds(3);

  private final BrowserProcess process;
  private final CdpConnection connection;
  private final Instant startedAt;
  private final String version;
  private final Map<String, PageRender> pagesByContext = new ConcurrentHashMap<>();
  private final AtomicInteger pagesStarted = new AtomicInteger();
  private final AtomicInteger pagesOpen = new AtomicInteger();
  private final AtomicBoolean broken = new AtomicBoolean();
  private final Duration commandTimeout;

  private Browser(
      BrowserProcess process,
      CdpConnection connection,
      Instant startedAt,
      String version,
      Duration commandTimeout) {
    this.process = process;
    this.connection = connection;
    this.startedAt = startedAt;
    this.version = version;
    this.commandTimeout = commandTimeout;
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
          new Browser(
              process,
              connection,
              now,
              answer.path("product").asText("?"),
              settings.commandTimeout());
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
              for (PageRender page : pagesByContext.values()) {
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
    PageRender page = pagesByContext.get(info.path("browserContextId").asText(""));
    String targetId = info.path("targetId").asText();
    if (page != null && !page.claimTarget(targetId)) {
      closeTarget(targetId); // a window the page opened
      page.popupClosed();
    }
  }

  /** Registers a page's context, so targets created in it are told apart. */
  void register(String contextId, PageRender page) {
    pagesByContext.put(contextId, page);
  }

  void unregister(String contextId) {
    pagesByContext.remove(contextId);
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
  int pageStarted() {
    pagesOpen.incrementAndGet();
    return pagesStarted.incrementAndGet();
  }

  /** Counts a page ended; returns how many are still open. */
  int pageEnded() {
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
