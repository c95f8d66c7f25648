package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.render.domain.LoadDecision;
import dev.crawler.render.domain.MainDocument;
import dev.crawler.render.domain.RenderOutcome;
import dev.crawler.render.domain.RenderOutcome.FailureReason;
import dev.crawler.render.domain.RenderOutcome.MainResponse;
import dev.crawler.render.domain.RenderOutcome.Settled;
import dev.crawler.render.domain.RenderSettings;
import dev.crawler.render.domain.RenderStats;
import dev.crawler.render.domain.RequestLoader;
import dev.crawler.render.domain.Settling;
import dev.crawler.render.domain.Settling.Observation;
import dev.crawler.schemas.Origin;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One page's render, in a {@link Tab} of the page's origin.
 *
 * <ol>
 *   <li>A tab of the origin, kept from its last page or opened ({@link Browser#tabFor}).
 *   <li>{@code Page.navigate}; each request the page makes is answered through the {@link
 *       RequestLoader}: fulfilled with its response, or failed as blocked by the client. The main
 *       document's response is judged first ({@link MainDocument}): a redirect is handed to the
 *       browser, which follows it (the next hop is intercepted again); a response that is not a
 *       page to render ends the render as {@link RenderOutcome.NotRendered}. Once the page has
 *       loaded, a navigation of its top frame (a script setting {@code location}, a meta refresh)
 *       is answered 204, which leaves the page where it is, and its URL recorded.
 *   <li>Every poll interval, the page is looked at ({@code Runtime.evaluate}): when it is quiet
 *       ({@link Settling}) its DOM is read. At the time bound: a page that still answers is read as
 *       it stands ({@link Settled#AT_MAX_WAIT}); one whose scripts do not yield (an endless loop)
 *       has them terminated and ends as {@link RenderOutcome.TimedOut}.
 *   <li>The tab is given back ({@link Browser#putBack}): blanked and kept for the origin when the
 *       render left it sound, else its context is disposed of, its target and renderer with it.
 * </ol>
 *
 * <p>Thread-safe: events come on the protocol's reader thread, loader answers on the loader's
 * threads, polls on the renderer's timer; the state is guarded by this object's lock, and nothing
 * blocks while holding it.
 */
final class PageRender {

  private static final Logger log = LoggerFactory.getLogger(PageRender.class);

  /** What a poll reads: the document's state and the DOM's quiet time (-1 when unknown). */
  static final String POLL =
      "(() => { const f = window['"
          + Tab.QUIET_PROBE
          + "']; return {state: document.readyState, quiet: f ? Math.floor(f()) : -1}; })()";

  /** The time a page at its bound still gets to answer, or to have its DOM read. */
  static final Duration GRACE = Duration.ofSeconds(2);

  private final Browser browser;
  private final CdpConnection cdp;
  private final RenderSettings settings;
  private final Settling settling;
  private final String url;
  private final String origin;
  private final int maxRedirects;
  private final RequestLoader loader;
  private final InstantSource clock;
  private final ScheduledExecutorService timer;
  private final Instant started;
  private final CompletableFuture<RenderOutcome> outcome = new CompletableFuture<>();
  private final CompletableFuture<Void> tabReturned = new CompletableFuture<>();

  // guarded by this
  private @Nullable Tab tab;
  private volatile @Nullable String targetId;
  private volatile @Nullable String sessionId;
  private boolean navigated;
  private boolean mainCommitted;
  private String mainUrl;
  private final List<String> redirectChain = new ArrayList<>();
  private @Nullable MainResponse mainResponse;
  private int requestsInFlight;
  private Instant lastNetworkActivity;
  private int requests;
  private int loaded;
  private int blocked;
  private int popupsClosed;
  private final List<String> navigationsIgnored = new ArrayList<>();
  private @Nullable Instant pollSentAt;
  private @Nullable Observation lastSeen;
  private @Nullable ScheduledFuture<?> ticks;
  private boolean ending;

  PageRender(
      Browser browser,
      RenderSettings settings,
      String url,
      int maxRedirects,
      RequestLoader loader,
      InstantSource clock,
      ScheduledExecutorService timer) {
    this.browser = browser;
    this.cdp = browser.connection();
    this.settings = settings;
    this.settling = settings.settling();
    this.url = url;
    this.origin = originOf(url);
    this.mainUrl = url;
    this.maxRedirects = maxRedirects;
    this.loader = loader;
    this.clock = clock;
    this.timer = timer;
    this.started = clock.instant();
    this.lastNetworkActivity = started;
  }

  /** Completes with the render's outcome (never exceptionally). */
  CompletableFuture<RenderOutcome> outcome() {
    return outcome;
  }

  /** Completes when the page's tab is given back: blanked and kept, or disposed of. */
  CompletableFuture<Void> tabReturned() {
    return tabReturned;
  }

  /** Starts the render: takes a tab for the page's origin, then navigates. */
  void start() {
    synchronized (this) {
      ticks =
          timer.scheduleWithFixedDelay(
              this::tick,
              settings.pollInterval().toMillis(),
              settings.pollInterval().toMillis(),
              TimeUnit.MILLISECONDS);
    }
    browser
        .tabFor(origin)
        .whenComplete(
            (opened, failure) -> {
              if (failure != null) {
                String reason = "setting up the page: " + describe(failure);
                browser.markBroken(reason);
                end(failed(FailureReason.BROWSER_FAILED, reason));
                return;
              }
              boolean late;
              synchronized (this) {
                late = ending;
                if (!late) {
                  tab = opened;
                  targetId = opened.targetId();
                  sessionId = opened.sessionId();
                  opened.use(this);
                }
              }
              if (late) {
                browser.putBack(opened, true, opened.origin()); // ended (closed) meanwhile
              } else {
                navigate();
              }
            });
  }

  private void navigate() {
    String session;
    synchronized (this) {
      if (ending) {
        return;
      }
      session = sessionId;
    }
    ObjectNode params = cdp.params();
    params.put("url", url);
    cdp.send("Page.navigate", params, session, remaining().plus(GRACE))
        .whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                if (isTimeout(failure)) {
                  return; // the time bound ends the render
                }
                end(failed(FailureReason.BROWSER_FAILED, "navigating: " + describe(failure)));
                return;
              }
              String error = answer.path("errorText").asText("");
              if (!error.isEmpty()) {
                // the main document blocked or not rendered ends the render first; this is the rest
                end(failed(FailureReason.NAVIGATION_FAILED, error));
                return;
              }
              synchronized (this) {
                navigated = true;
              }
            });
  }

  /** An event of the tab's session, while the tab is this page's. */
  void onEvent(String method, JsonNode params) {
    switch (method) {
      case "Fetch.requestPaused" -> onRequest(params);
      case "Inspector.targetCrashed" ->
          end(failed(FailureReason.TAB_CRASHED, "the page's renderer crashed"));
      case "Inspector.detached" ->
          end(
              failed(
                  FailureReason.BROWSER_FAILED,
                  "the page was detached: " + params.path("reason").asText("")));
      default -> {
        // other events of the enabled domains are not needed
      }
    }
  }

  private void onRequest(JsonNode params) {
    String requestId = params.path("requestId").asText();
    JsonNode request = params.path("request");
    String requestUrl = request.path("url").asText();
    String type = params.path("resourceType").asText("Other");
    InterceptedRequest intercepted;
    synchronized (this) {
      if (ending) {
        fail(requestId, "Aborted");
        return;
      }
      boolean isMain = type.equals("Document") && params.path("frameId").asText().equals(targetId);
      requests++;
      if (isMain && mainCommitted) {
        // the loaded page navigates away: stay on it (a 204 does not navigate), keep the URL
        if (navigationsIgnored.size() < RenderStats.MAX_NAVIGATIONS_KEPT) {
          navigationsIgnored.add(requestUrl);
        }
        fulfil(requestId, new LoadDecision.Fulfil(204, List.of(), new byte[0]));
        return;
      }
      if (requests > settings.maxRequestsPerPage()) {
        blocked++;
        fail(requestId, "BlockedByClient");
        return;
      }
      if (!isMain && settings.isBlockedType(type)) {
        blocked++;
        fail(requestId, "BlockedByClient");
        return;
      }
      requestsInFlight++;
      lastNetworkActivity = clock.instant();
      intercepted =
          new InterceptedRequest(
              requestUrl,
              request.path("method").asText("GET"),
              headers(request.path("headers")),
              type,
              isMain,
              url);
    }
    CompletableFuture<LoadDecision> answer;
    try {
      answer = loader.load(intercepted);
    } catch (RuntimeException e) {
      answer = CompletableFuture.completedFuture(new LoadDecision.Block(describe(e)));
    }
    answer.whenComplete(
        (decision, failure) ->
            answered(
                requestId,
                intercepted,
                decision != null ? decision : new LoadDecision.Block(describe(failure))));
  }

  private void answered(String requestId, InterceptedRequest request, LoadDecision decision) {
    @Nullable RenderOutcome ended = null;
    synchronized (this) {
      requestsInFlight--;
      lastNetworkActivity = clock.instant();
      if (ending) {
        fail(requestId, "Aborted");
        return;
      }
      if (decision instanceof LoadDecision.Block block) {
        blocked++;
        if (request.isMainDocument()) {
          ended = failed(FailureReason.MAIN_DOCUMENT_BLOCKED, block.reason());
        } else {
          fail(requestId, "BlockedByClient");
        }
      } else if (decision instanceof LoadDecision.Fulfil response) {
        loaded++;
        if (request.isMainDocument()) {
          ended = judgeMain(requestId, request.url(), response);
        } else {
          fulfil(requestId, response);
        }
      }
    }
    if (ended != null) {
      end(ended); // before the browser hears of it, so its navigation error comes second
      fail(requestId, "BlockedByClient");
    }
  }

  /**
   * Hands the main document's response to the browser, or returns the outcome it ends the render
   * with (the request then still to be failed). Holds the lock.
   */
  private @Nullable RenderOutcome judgeMain(
      String requestId, String documentUrl, LoadDecision.Fulfil response) {
    MainResponse main = new MainResponse(response.status(), response.headers());
    MainDocument.Disposition disposition =
        MainDocument.judge(
            response.status(),
            response.header("Content-Type"),
            response.header("Location"),
            redirectChain.size(),
            maxRedirects);
    if (disposition instanceof MainDocument.FollowRedirect) {
      redirectChain.add(documentUrl);
      fulfil(requestId, response);
      return null;
    }
    mainUrl = documentUrl;
    mainResponse = main;
    if (disposition instanceof MainDocument.ReturnAsIs asIs) {
      return new RenderOutcome.NotRendered(
          documentUrl, redirectChain, main, asIs.reason(), stats(), elapsedMillis());
    }
    mainCommitted = true;
    fulfil(requestId, response);
    return null;
  }

  private void tick() {
    String session;
    synchronized (this) {
      if (ending) {
        return;
      }
      if (elapsedMillis() >= settings.maxWait().toMillis()) {
        atBound();
        return;
      }
      if (!navigated || pollSentAt != null) {
        return;
      }
      pollSentAt = clock.instant();
      session = sessionId;
    }
    ObjectNode params = cdp.params();
    params.put("expression", POLL);
    params.put("returnByValue", true);
    cdp.send("Runtime.evaluate", params, session, remaining().plus(GRACE))
        .whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                return; // an unanswered poll: the page is busy; the time bound decides
              }
              Observation seen;
              synchronized (this) {
                pollSentAt = null;
                JsonNode value = answer.path("result").path("value");
                long quiet = value.path("quiet").asLong(-1);
                Instant now = clock.instant();
                seen =
                    new Observation(
                        elapsedMillis(),
                        mainCommitted,
                        requestsInFlight,
                        Duration.between(lastNetworkActivity, now).toMillis(),
                        quiet < 0 ? Long.MAX_VALUE : quiet,
                        value.path("state").asText().equals("complete"));
                lastSeen = seen;
              }
              if (settling.isQuiet(seen)) {
                readDom(Settled.QUIET, "");
              }
            });
  }

  /** The time bound has come. Holds the lock. */
  private void atBound() {
    if (!mainCommitted && !navigated && requests == 0) {
      // the browser neither answered the navigation nor asked for the page: it is the one stuck
      String reason =
          "the browser did not start loading the page within "
              + settings.maxWait().toMillis()
              + " ms";
      browser.markBroken(reason);
      endLater(failed(FailureReason.BROWSER_FAILED, reason));
      return;
    }
    if (!mainCommitted) {
      endLater(
          new RenderOutcome.TimedOut(
              "the main document was not loaded within " + settings.maxWait().toMillis() + " ms",
              stats(),
              elapsedMillis()));
      return;
    }
    Instant asked = pollSentAt;
    if (asked != null && Duration.between(asked, clock.instant()).compareTo(GRACE) > 0) {
      terminateScripts();
      endLater(
          new RenderOutcome.TimedOut(
              "the page's scripts did not yield for "
                  + Duration.between(asked, clock.instant()).toMillis()
                  + " ms (terminated)",
              stats(),
              elapsedMillis()));
      return;
    }
    Observation seen = lastSeen;
    String busy = seen == null ? "the page did not answer a poll" : settling.busyDetail(seen);
    ending = true; // no more polls: the DOM is read once
    timer.execute(() -> readDom(Settled.AT_MAX_WAIT, busy));
  }

  private void terminateScripts() {
    cdp.tell("Runtime.terminateExecution", cdp.params(), sessionId, GRACE);
  }

  private void readDom(Settled settled, String busy) {
    String session;
    synchronized (this) {
      if (ending && settled == Settled.QUIET) {
        return;
      }
      ending = true;
      session = sessionId;
    }
    ObjectNode params = cdp.params();
    params.put("expression", readExpression(settings.maxDomBytes()));
    params.put("returnByValue", true);
    cdp.send("Runtime.evaluate", params, session, GRACE)
        .whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                terminateScripts();
                finish(
                    new RenderOutcome.TimedOut(
                        "the page's scripts did not yield: its DOM could not be read ("
                            + describe(failure)
                            + "; terminated)",
                        stats(),
                        elapsedMillis()));
                return;
              }
              JsonNode value = answer.path("result").path("value");
              String doctype = value.path("doctype").asText("");
              String html = value.path("html").asText("");
              boolean truncated = value.path("length").asLong(0) > html.length();
              String document = doctype.isEmpty() ? html : doctype + "\n" + html;
              byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
              if (bytes.length > settings.maxDomBytes()) {
                document = cutToBytes(document, settings.maxDomBytes());
                truncated = true;
              }
              MainResponse main;
              List<String> chain;
              String at;
              synchronized (this) {
                main = mainResponse;
                chain = List.copyOf(redirectChain);
                at = mainUrl;
              }
              finish(
                  new RenderOutcome.Rendered(
                      at,
                      chain,
                      main == null ? new MainResponse(0, List.of()) : main,
                      document,
                      truncated,
                      settled,
                      busy,
                      stats(),
                      elapsedMillis()));
            });
  }

  /** The expression that reads the document: its doctype, and its HTML up to {@code maxChars}. */
  static String readExpression(int maxChars) {
    return "(() => { const d = document;"
        + " const t = d.doctype ? new XMLSerializer().serializeToString(d.doctype) : '';"
        + " const h = d.documentElement ? d.documentElement.outerHTML : '';"
        + " return {doctype: t, length: h.length, html: h.length > "
        + maxChars
        + " ? h.substring(0, "
        + maxChars
        + ") : h}; })()";
  }

  /** The longest prefix of {@code text} whose UTF-8 encoding fits in {@code maxBytes}. */
  static String cutToBytes(String text, int maxBytes) {
    int bytes = 0;
    int i = 0;
    while (i < text.length()) {
      int codePoint = text.codePointAt(i);
      int size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      i += Character.charCount(codePoint);
    }
    return text.substring(0, i);
  }

  synchronized void popupClosed() {
    popupsClosed++;
  }

  /** The browser's pipe closed under the page. */
  void browserLost(String reason) {
    end(failed(FailureReason.BROWSER_FAILED, "the browser was lost: " + reason));
  }

  /** Ends the render now, as the renderer closes. */
  void abandon() {
    end(failed(FailureReason.CLOSED, "the renderer was closed"));
  }

  private void endLater(RenderOutcome result) {
    ending = true;
    timer.execute(() -> finish(result));
  }

  private void end(RenderOutcome result) {
    synchronized (this) {
      ending = true;
    }
    finish(result);
  }

  /**
   * Completes the outcome (the first one wins) and gives the tab back: kept for the origin's next
   * page when the render left it sound, else disposed of.
   */
  private void finish(RenderOutcome result) {
    if (!outcome.complete(result)) {
      return;
    }
    log.debug("{} {} in {} ms", url, result.getClass().getSimpleName(), result.durationMillis());
    Tab used;
    String documentOrigin;
    synchronized (this) {
      ending = true;
      used = tab;
      documentOrigin = originOf(mainUrl);
      if (ticks != null) {
        ticks.cancel(false);
      }
    }
    if (used == null) {
      tabReturned.complete(null);
      return;
    }
    used.release();
    browser
        .putBack(used, leavesTabSound(result), documentOrigin.isEmpty() ? origin : documentOrigin)
        .whenComplete((done, failure) -> tabReturned.complete(null));
  }

  /** Whether a render ended with its tab fit for another page. */
  static boolean leavesTabSound(RenderOutcome result) {
    if (result instanceof RenderOutcome.Rendered || result instanceof RenderOutcome.NotRendered) {
      return true;
    }
    return result instanceof RenderOutcome.Failed failed
        && (failed.reason() == FailureReason.MAIN_DOCUMENT_BLOCKED
            || failed.reason() == FailureReason.NAVIGATION_FAILED);
  }

  /** The origin of a URL ({@code scheme://host[:port]}), empty when it has none. */
  static String originOf(String url) {
    try {
      return Origin.keyOf(url);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private synchronized RenderStats stats() {
    return new RenderStats(requests, loaded, blocked, popupsClosed, navigationsIgnored);
  }

  private RenderOutcome failed(FailureReason reason, String detail) {
    return new RenderOutcome.Failed(reason, detail, stats(), elapsedMillis());
  }

  private long elapsedMillis() {
    return Duration.between(started, clock.instant()).toMillis();
  }

  private Duration remaining() {
    Duration left = settings.maxWait().minus(Duration.between(started, clock.instant()));
    return left.isNegative() ? Duration.ZERO : left;
  }

  private void fulfil(String requestId, LoadDecision.Fulfil response) {
    ObjectNode params = cdp.params();
    params.put("requestId", requestId);
    params.put("responseCode", response.status());
    ArrayNode headers = params.putArray("responseHeaders");
    for (Header header : response.headersForBrowser()) {
      ObjectNode field = headers.addObject();
      field.put("name", header.name());
      field.put("value", header.value());
    }
    params.put("body", Base64.getEncoder().encodeToString(response.body()));
    cdp.tell("Fetch.fulfillRequest", params, sessionId, settings.commandTimeout());
  }

  private void fail(String requestId, String reason) {
    ObjectNode params = cdp.params();
    params.put("requestId", requestId);
    params.put("errorReason", reason);
    cdp.tell("Fetch.failRequest", params, sessionId, settings.commandTimeout());
  }

  private static Map<String, String> headers(JsonNode node) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      headers.put(field.getKey(), field.getValue().asText());
    }
    return headers;
  }

  private static boolean isTimeout(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof TimeoutException;
  }

  static String describe(@Nullable Throwable failure) {
    if (failure == null) {
      return "unknown";
    }
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (cause instanceof TimeoutException) {
      return "no answer in time";
    }
    return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
  }
}
