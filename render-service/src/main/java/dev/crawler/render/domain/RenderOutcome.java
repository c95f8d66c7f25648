package dev.crawler.render.domain;

import java.util.List;

/**
 * How one render ended: the page rendered, its main document returned unrendered, out of time, or
 * failed. Every way a render can end is one of these; none is an exception.
 */
public sealed interface RenderOutcome {

  /** From the render's start to its end, in milliseconds. */
  long durationMillis();

  /** What the page asked for and what it got. */
  RenderStats stats();

  /** What the main document's response was, as the loader gave it. */
  record MainResponse(int status, List<Header> headers) {

    public MainResponse {
      headers = List.copyOf(headers);
    }
  }

  /** Whether the page was quiet when its DOM was read. */
  enum Settled {
    /** Neither a request in flight nor a DOM change for the quiet window: the page was done. */
    QUIET,
    /**
     * The bound on a render's time came first: the DOM was read as it stood, requests still in
     * flight or the DOM still changing (a ticking clock, a carousel).
     */
    AT_MAX_WAIT
  }

  /**
   * The page rendered.
   *
   * @param url the document's URL: the one asked for, or the last redirect's target
   * @param redirectChain the URLs redirected through before {@code url}, starting with the one
   *     asked for; empty when none
   * @param main the main document's response (its status and headers; its body is what the browser
   *     parsed)
   * @param html the document as HTML: its doctype and {@code document.documentElement.outerHTML},
   *     at most the DOM size limit in UTF-8 bytes
   * @param truncated whether {@code html} was cut at the DOM size limit
   * @param settled whether it was read quiet or at the bound
   * @param busyDetail what was still busy when read at the bound; empty when quiet
   */
  record Rendered(
      String url,
      List<String> redirectChain,
      MainResponse main,
      String html,
      boolean truncated,
      Settled settled,
      String busyDetail,
      RenderStats stats,
      long durationMillis)
      implements RenderOutcome {

    public Rendered {
      redirectChain = List.copyOf(redirectChain);
    }
  }

  /**
   * The main document is not a page to render ({@link MainDocument}): an error status, a redirect
   * beyond those followed, a type that is not HTML. The caller has the response itself, from its
   * loader.
   *
   * @param url the URL that gave it
   * @param reason why it was not rendered
   */
  record NotRendered(
      String url,
      List<String> redirectChain,
      MainResponse main,
      String reason,
      RenderStats stats,
      long durationMillis)
      implements RenderOutcome {

    public NotRendered {
      redirectChain = List.copyOf(redirectChain);
    }
  }

  /**
   * The render's time bound passed with no DOM to read: the main document never came, or the page's
   * scripts kept it from answering (an endless loop; its scripts were then terminated).
   */
  record TimedOut(String detail, RenderStats stats, long durationMillis) implements RenderOutcome {}

  /** The render failed; {@code detail} says how (never a secret). */
  record Failed(FailureReason reason, String detail, RenderStats stats, long durationMillis)
      implements RenderOutcome {}

  /** Why a render failed. */
  enum FailureReason {
    /** The loader refused or could not load the main document: nothing to render. */
    MAIN_DOCUMENT_BLOCKED,
    /** The browser could not navigate to the page (its error text in the detail). */
    NAVIGATION_FAILED,
    /** The page's renderer process crashed (out of memory, a browser bug). */
    TAB_CRASHED,
    /** The browser died or stopped answering during the render; it is replaced. */
    BROWSER_FAILED,
    /** No browser could be started (missing, failing at start-up). */
    BROWSER_UNAVAILABLE,
    /** The renderer was closed before the render ended. */
    CLOSED
  }
}
