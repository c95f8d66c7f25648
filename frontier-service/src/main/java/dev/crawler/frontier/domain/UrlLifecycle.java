package dev.crawler.frontier.domain;

import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What becomes of a URL the frontier knows: when it is discovered again, and when an outcome of its
 * fetch comes back. Pure decisions over the URL's stored state; the frontier's processor applies
 * them to its stores. The seeds' rules: the first state takes precedence (pending-URL store), an
 * error blacklists the URL until an operator clears the errors, a known URL not yet due is
 * premature, a recrawl fetches again what is done, transient failures are retried.
 */
public final class UrlLifecycle {

  private UrlLifecycle() {}

  /**
   * How a stored URL was found: its state keeps the kind's name, parsed here alone ({@code LINK}
   * for a name this version does not know).
   */
  public static UrlKind kindOf(UrlState state) {
    try {
      return UrlKind.valueOf(state.getKind());
    } catch (IllegalArgumentException e) {
      return UrlKind.LINK;
    }
  }

  /** What a discovery of a URL already known leads to. */
  public enum Rediscovery {
    /** Nothing changes: the first state takes precedence. */
    KNOWN,
    /** A recrawl asks for the URL while it is queued or in flight: it is being fetched already. */
    BEING_FETCHED,
    /** The recrawl scheduler asks for a done URL: queued and released at once. */
    RECRAWL_NOW,
    /** An earlier error blacklists it until the operator clears the errors: logged BLACKLISTED. */
    BLACKLISTED,
    /** Its error was cleared since: it is decided again as a new URL. */
    DECIDE_AGAIN,
    /** Its sitemap says it changed since it was fetched: queued again, due or not. */
    CHANGED_SINCE_FETCH,
    /** A recrawl waits for a page to link it again, and one does: queued again. */
    LINKED_AGAIN,
    /** Known and not yet due for its refresh: logged PREMATURE, once per due time. */
    PREMATURE
  }

  /** What the outcome of a fetch does to the URL. */
  public enum AfterFetch {
    /**
     * The fetcher did not try (the origin is paused or not due): queued again, and the attempt does
     * not count.
     */
    QUEUED_AGAIN,
    /** A transient failure with attempts left: queued again. */
    RETRIED,
    /** Done with this outcome. */
    DONE,
    /** Done with an error outcome: blacklisted until the errors are cleared. */
    ERROR,
    /**
     * The page needs a browser (the parser found it built by scripts): queued again to be rendered,
     * and the attempt does not count.
     */
    RENDER
  }

  /**
   * The decision about a known URL discovered again.
   *
   * @param kind how it was discovered now
   * @param sitemapLastModified the last modification a sitemap gives for it now, if any
   * @param errorsClearedAt when the operator last cleared the errors (epoch ms; 0 never)
   */
  public static Rediscovery rediscovered(
      UrlState known,
      UrlKind kind,
      @Nullable Instant sitemapLastModified,
      long errorsClearedAt,
      Instant now) {
    UrlStatus status = known.getStatus();
    boolean isDone = status == UrlStatus.DONE;
    if (kind == UrlKind.RECRAWL) {
      return isDone || status == UrlStatus.ERROR
          ? Rediscovery.RECRAWL_NOW
          : Rediscovery.BEING_FETCHED;
    }
    if (status == UrlStatus.ERROR) {
      return known.getDecidedAt().toEpochMilli() > errorsClearedAt
          ? Rediscovery.BLACKLISTED
          : Rediscovery.DECIDE_AGAIN;
    }
    if (!isDone) {
      return Rediscovery.KNOWN;
    }
    if (isAwaitingLink(known)) {
      return Rediscovery.LINKED_AGAIN;
    }
    if (known.getDueAt().toEpochMilli() == 0) {
      return Rediscovery.KNOWN; // no refresh scheduled
    }
    if (sitemapLastModified != null && sitemapLastModified.isAfter(known.getDecidedAt())) {
      return Rediscovery.CHANGED_SINCE_FETCH;
    }
    return known.getDueAt().isAfter(now) && !known.getPrematureLogged()
        ? Rediscovery.PREMATURE
        : Rediscovery.KNOWN;
  }

  /** Whether a recrawl waits for a page to link the URL again (orphans ignore or delete). */
  public static boolean isAwaitingLink(UrlState state) {
    return state.getAwaitingLinkSince().toEpochMilli() > 0;
  }

  /**
   * Whether an outcome is late: its request is not the URL's request in flight (a lease that
   * expired, or a second outcome of one request). A late outcome changes nothing.
   */
  public static boolean isLate(@Nullable UrlState state, String requestId) {
    return state == null
        || state.getStatus() != UrlStatus.IN_FLIGHT
        || !state.getRequestId().equals(requestId);
  }

  /** What the outcome of the URL's fetch {@code attempt} does to it. */
  public static AfterFetch afterFetch(Outcome outcome, int attempt, FrontierSettings settings) {
    if (outcome == Outcome.DEFERRED) {
      return AfterFetch.QUEUED_AGAIN;
    }
    if (outcome == Outcome.RENDER_NEEDED) {
      return AfterFetch.RENDER;
    }
    if (settings.isRetried(outcome, attempt)) {
      return AfterFetch.RETRIED;
    }
    return FrontierSettings.isError(outcome) ? AfterFetch.ERROR : AfterFetch.DONE;
  }

  /**
   * Whether a final outcome means the retries were spent (the committer's deletion grace counts
   * such a failed crawl of the URL).
   */
  public static boolean isGivenUp(Outcome outcome) {
    return outcome == Outcome.NETWORK_ERROR || outcome == Outcome.RATE_LIMITED;
  }

  /** The detail of the outcome that says the retries were spent. */
  public static String givenUpDetail(int attempts, @Nullable String detail) {
    return "gave up after " + attempts + " attempts" + (detail == null ? "" : ": " + detail);
  }
}
