package dev.crawler.render.domain;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When a page is done: its main document loaded and parsed ({@code document.readyState} {@code
 * complete}), no request in flight and none answered for the quiet window, and no DOM change for
 * the quiet window; or the bound on a render's time. Content that a script adds after a {@code
 * fetch()} or a timer shorter than the quiet window is therefore in the DOM read; a timer longer
 * than the quiet window, after the page is otherwise quiet, is not.
 *
 * @param quietWindow how long the network and the DOM must both be quiet
 * @param maxWait the most a render may take, from its start to the DOM read
 */
public record Settling(Duration quietWindow, Duration maxWait) {

  /** What the page is at an observation. */
  public enum Verdict {
    /** Still busy or not yet quiet long enough. */
    WAIT,
    /** Done: read the DOM. */
    QUIET,
    /** The bound came first. */
    OUT_OF_TIME
  }

  /**
   * One look at the page; all times in milliseconds.
   *
   * @param elapsedMillis since the render started
   * @param mainDocumentLoaded whether the main document's response was handed to the browser
   * @param requestsInFlight requests the loader has not answered yet
   * @param millisSinceNetworkActivity since a request was last made or answered
   * @param millisSinceDomChange since the DOM last changed, as the page measured it
   * @param documentComplete whether {@code document.readyState} is {@code complete}
   */
  public record Observation(
      long elapsedMillis,
      boolean mainDocumentLoaded,
      int requestsInFlight,
      long millisSinceNetworkActivity,
      long millisSinceDomChange,
      boolean documentComplete) {}

  /** Judges one observation. */
  public Verdict judge(Observation seen) {
    if (isQuiet(seen)) {
      return Verdict.QUIET;
    }
    return seen.elapsedMillis() >= maxWait.toMillis() ? Verdict.OUT_OF_TIME : Verdict.WAIT;
  }

  /** Whether the page is done, whatever the time. */
  public boolean isQuiet(Observation seen) {
    long quiet = quietWindow.toMillis();
    return seen.mainDocumentLoaded()
        && seen.documentComplete()
        && seen.requestsInFlight() == 0
        && seen.millisSinceNetworkActivity() >= quiet
        && seen.millisSinceDomChange() >= quiet;
  }

  /**
   * What keeps the page from being quiet, e.g. {@code 2 requests in flight; DOM changed 40 ms ago}.
   */
  public String busyDetail(Observation seen) {
    List<String> busy = new ArrayList<>();
    long quiet = quietWindow.toMillis();
    if (!seen.mainDocumentLoaded()) {
      busy.add("main document not loaded");
    } else if (!seen.documentComplete()) {
      busy.add("document still loading");
    }
    if (seen.requestsInFlight() > 0) {
      busy.add(seen.requestsInFlight() + " requests in flight");
    } else if (seen.millisSinceNetworkActivity() < quiet) {
      busy.add("a request answered " + seen.millisSinceNetworkActivity() + " ms ago");
    }
    if (seen.millisSinceDomChange() < quiet) {
      busy.add("DOM changed " + seen.millisSinceDomChange() + " ms ago");
    }
    return String.join("; ", busy);
  }
}
