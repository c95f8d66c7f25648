package dev.crawler.frontier.domain;

import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.schemas.options.RequestOptions;
import dev.crawler.schemas.options.RequestOptions.Render;
import java.util.Map;

/**
 * Which released URLs go to the render tier (a headless browser) rather than the fetchers, by the
 * option {@code render}: {@code always} every one; {@code auto} a URL whose page the parser found
 * built by scripts, and every URL of an origin where {@value #PAGES_BEFORE_ORIGIN} pages were;
 * {@code never} none. A rendered page is never sent back for rendering (the parser does not ask it
 * of a rendered result), so no URL goes round.
 */
public final class RenderRouting {

  /** Pages of an origin that need a browser before all its pages are rendered. */
  public static final int PAGES_BEFORE_ORIGIN = 3;

  private RenderRouting() {}

  /** Whether the request goes to the render tier. */
  public static boolean isRendered(
      Map<String, String> requestOptions, UrlState state, OriginState origin) {
    Render render = RequestOptions.RENDER.readFrom(requestOptions);
    return switch (render) {
      case ALWAYS -> true;
      case AUTO -> state.getRender() || origin.getRendersPages();
      case NEVER -> false;
    };
  }

  /**
   * Counts one more page of the origin that needed a browser; returns whether the origin is
   * rendered from now on because of it.
   */
  public static boolean neededOnePageMore(OriginState origin) {
    origin.setRenderNeeded(origin.getRenderNeeded() + 1);
    if (!origin.getRendersPages() && origin.getRenderNeeded() >= PAGES_BEFORE_ORIGIN) {
      origin.setRendersPages(true);
      return true;
    }
    return false;
  }
}
