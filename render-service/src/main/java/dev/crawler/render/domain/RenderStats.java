package dev.crawler.render.domain;

import java.util.List;

/**
 * What a page asked for during its render.
 *
 * @param requests requests the page made (the main document's included), each seen by the renderer
 * @param loaded those the loader answered with a response
 * @param blocked those refused: by the loader, by their resource type, past the per-page cap
 * @param popupsClosed windows the page opened, closed at once
 * @param navigationsIgnored URLs the page's scripts or markup navigated the top frame to after it
 *     loaded (left unfollowed; at most {@link #MAX_NAVIGATIONS_KEPT} kept), for the caller to treat
 *     as links
 */
public record RenderStats(
    int requests, int loaded, int blocked, int popupsClosed, List<String> navigationsIgnored) {

  /** The most ignored navigations a render keeps. */
  public static final int MAX_NAVIGATIONS_KEPT = 10;

  public static final RenderStats NONE = new RenderStats(0, 0, 0, 0, List.of());

  public RenderStats {
    navigationsIgnored = List.copyOf(navigationsIgnored);
  }
}
