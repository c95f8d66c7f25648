package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.render.domain.RenderSettings;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A page target in a browser context of its own, attached and prepared: every request intercepted
 * ({@code Fetch.enable}, all URLs, before they are sent), dialogs and crashes reported, the
 * crawler's User-Agent, service workers bypassed, the DOM-change watch installed before any script
 * of a page. A tab renders one page at a time; between pages of the same origin it is kept (its
 * renderer process stays warm), and a page of another origin gets a new tab, so cookies and storage
 * never pass from one origin to another. Dialogs are answered here (alert, confirm and prompt
 * dismissed, leaving a page allowed); the session's other events go to the page it renders, or are
 * answered here while it is idle. Thread-safe.
 */
final class Tab {

  /** The page-side name of the function that says how long ago the DOM last changed. */
  static final String QUIET_PROBE = "__crawlerMillisSinceDomChange";

  /** Installed before the page's own scripts, in its top frame only. */
  static final String MUTATION_WATCH =
      "(() => {\n"
          + "  if (window.top !== window) return;\n"
          + "  let last = performance.now();\n"
          + "  const seen = () => { last = performance.now(); };\n"
          + "  new MutationObserver(seen).observe(document, {subtree: true, childList: true,\n"
          + "    characterData: true, attributes: true, attributeFilter: ['href', 'src']});\n"
          + "  Object.defineProperty(window, '"
          + QUIET_PROBE
          + "', {value: () => performance.now() - last, enumerable: false});\n"
          + "})();";

  private final CdpConnection cdp;
  private final String contextId;
  private final String targetId;
  private final String sessionId;
  private final String origin;
  private final Duration timeout;

  // guarded by this
  private @Nullable PageRender page;
  private int pages;
  private boolean crashed;

  private Tab(
      CdpConnection cdp,
      String contextId,
      String targetId,
      String sessionId,
      String origin,
      Duration timeout) {
    this.cdp = cdp;
    this.contextId = contextId;
    this.targetId = targetId;
    this.sessionId = sessionId;
    this.origin = origin;
    this.timeout = timeout;
  }

  /**
   * Opens a tab for pages of {@code origin}: a browser context, a target in it, a session attached
   * and prepared. {@code registered} is told the context first, so the browser can tell the tab's
   * own target from a window opened in the context.
   */
  static CompletableFuture<Tab> open(
      Browser browser,
      RenderSettings settings,
      String origin,
      java.util.function.Consumer<String> registered) {
    CdpConnection cdp = browser.connection();
    Duration timeout = settings.commandTimeout();
    ObjectNode contextParams = cdp.params();
    contextParams.put("disposeOnDetach", false);
    return cdp.send("Target.createBrowserContext", contextParams, null, timeout)
        .thenCompose(
            context -> {
              String contextId = context.path("browserContextId").asText();
              registered.accept(contextId);
              ObjectNode target = cdp.params();
              target.put("url", "about:blank");
              target.put("browserContextId", contextId);
              return cdp.send("Target.createTarget", target, null, timeout)
                  .thenCompose(
                      created -> {
                        String targetId = created.path("targetId").asText();
                        ObjectNode attach = cdp.params();
                        attach.put("targetId", targetId);
                        attach.put("flatten", true);
                        return cdp.send("Target.attachToTarget", attach, null, timeout)
                            .thenCompose(
                                attached -> {
                                  Tab tab =
                                      new Tab(
                                          cdp,
                                          contextId,
                                          targetId,
                                          attached.path("sessionId").asText(),
                                          origin,
                                          timeout);
                                  cdp.onEvents(tab.sessionId, tab::onEvent);
                                  return tab.prepare(settings, browser.majorVersion())
                                      .thenApply(ready -> tab);
                                });
                      });
            });
  }

  private CompletableFuture<Void> prepare(RenderSettings settings, String majorVersion) {
    ObjectNode fetch = cdp.params();
    ArrayNode patterns = fetch.putArray("patterns");
    ObjectNode all = patterns.addObject();
    all.put("urlPattern", "*");
    all.put("requestStage", "Request");
    ObjectNode script = cdp.params();
    script.put("source", MUTATION_WATCH);
    ObjectNode bypass = cdp.params();
    bypass.put("bypass", true);
    return CompletableFuture.allOf(
        cdp.send(
            "Emulation.setUserAgentOverride",
            userAgent(settings, majorVersion),
            sessionId,
            timeout),
        cdp.send("Fetch.enable", fetch, sessionId, timeout),
        cdp.send("Page.enable", cdp.params(), sessionId, timeout),
        cdp.send("Inspector.enable", cdp.params(), sessionId, timeout),
        cdp.send("Page.addScriptToEvaluateOnNewDocument", script, sessionId, timeout),
        cdp.send("Network.setBypassServiceWorker", bypass, sessionId, timeout));
  }

  /**
   * The crawler's User-Agent, and client hints that name the engine but not a headless browser
   * ({@code navigator.userAgentData}: Chromium and its major version).
   */
  private ObjectNode userAgent(RenderSettings settings, String majorVersion) {
    ObjectNode params = cdp.params();
    params.put("userAgent", settings.userAgent());
    ObjectNode metadata = params.putObject("userAgentMetadata");
    ObjectNode brand = metadata.putArray("brands").addObject();
    brand.put("brand", "Chromium");
    brand.put("version", majorVersion);
    metadata.put("platform", "Linux");
    metadata.put("platformVersion", "");
    metadata.put("architecture", "x86");
    metadata.put("model", "");
    metadata.put("mobile", false);
    return params;
  }

  /** Gives the tab to a page: its events go there until {@link #release}. */
  synchronized void use(PageRender renderer) {
    page = renderer;
    pages++;
  }

  /** Takes the tab back from its page. */
  synchronized void release() {
    page = null;
  }

  /** Pages rendered in this tab. */
  synchronized int pages() {
    return pages;
  }

  synchronized boolean hasCrashed() {
    return crashed;
  }

  String contextId() {
    return contextId;
  }

  String targetId() {
    return targetId;
  }

  String sessionId() {
    return sessionId;
  }

  String origin() {
    return origin;
  }

  /** A window the page opened was closed. */
  void popupClosed() {
    PageRender current;
    synchronized (this) {
      current = page;
    }
    if (current != null) {
      current.popupClosed();
    }
  }

  /**
   * Leaves the page rendered: navigates to {@code about:blank}, which ends its scripts and timers,
   * and clears what its scripts stored for its origin (cookies, local storage, IndexedDB, caches),
   * so the next page of the origin renders as a first visit.
   */
  CompletableFuture<Void> blank(String documentOrigin) {
    ObjectNode blank = cdp.params();
    blank.put("url", "about:blank");
    ObjectNode clear = cdp.params();
    clear.put("origin", documentOrigin);
    clear.put("storageTypes", "all");
    return CompletableFuture.allOf(
        cdp.send("Page.navigate", blank, sessionId, timeout),
        // on the tab's session: the browser's own session clears its default context only
        cdp.send("Storage.clearDataForOrigin", clear, sessionId, timeout));
  }

  /** Disposes of the tab's context, its target and renderer with it. */
  CompletableFuture<JsonNode> dispose() {
    cdp.removeEvents(sessionId);
    ObjectNode params = cdp.params();
    params.put("browserContextId", contextId);
    return cdp.send("Target.disposeBrowserContext", params, null, timeout);
  }

  private void onEvent(String method, JsonNode params) {
    if (method.equals("Page.javascriptDialogOpening")) {
      // alert, confirm and prompt are dismissed; leaving a page (beforeunload) is always allowed
      ObjectNode answer = cdp.params();
      answer.put("accept", params.path("type").asText().equals("beforeunload"));
      cdp.tell("Page.handleJavaScriptDialog", answer, sessionId, timeout);
      return;
    }
    PageRender current;
    synchronized (this) {
      if (method.equals("Inspector.targetCrashed")) {
        crashed = true;
      }
      current = page;
    }
    if (current != null) {
      current.onEvent(method, params);
      return;
    }
    // idle: a late request of the page left is failed
    if (method.equals("Fetch.requestPaused")) {
      ObjectNode fail = cdp.params();
      fail.put("requestId", params.path("requestId").asText());
      fail.put("errorReason", "Aborted");
      cdp.tell("Fetch.failRequest", fail, sessionId, timeout);
    }
  }
}
