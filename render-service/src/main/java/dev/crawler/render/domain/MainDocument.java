package dev.crawler.render.domain;

import java.util.Locale;
import java.util.Set;

/**
 * What becomes of the main document's response: a redirect the browser follows, a page it renders,
 * or a response returned as it is. Only a successful HTML response is worth a browser's time: an
 * error page, a 304, a PDF or a redirect beyond those followed is what the plain fetch would have
 * returned, and the caller returns it so.
 */
public final class MainDocument {

  /** The media types rendered. */
  private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");

  private MainDocument() {}

  /** What to do with the response. */
  public sealed interface Disposition {}

  /** Hand it to the browser, which follows the redirect (the next hop is intercepted again). */
  public record FollowRedirect() implements Disposition {}

  /** Hand it to the browser and render it. */
  public record Render() implements Disposition {}

  /** Not rendered; {@code reason} says why. */
  public record ReturnAsIs(String reason) implements Disposition {}

  /**
   * Judges a main-document response.
   *
   * @param status its HTTP status
   * @param contentType its Content-Type field, empty when absent
   * @param location its Location field, empty when absent
   * @param redirectsFollowed redirects of the main document followed so far in this render
   * @param maxRedirects redirects the render may follow
   */
  public static Disposition judge(
      int status, String contentType, String location, int redirectsFollowed, int maxRedirects) {
    if (isRedirect(status)) {
      if (location.isBlank()) {
        return new ReturnAsIs("a redirect without a Location");
      }
      return redirectsFollowed < maxRedirects
          ? new FollowRedirect()
          : new ReturnAsIs("a redirect (" + status + "), not followed");
    }
    if (status < 200 || status > 299 || status == 204 || status == 205) {
      return new ReturnAsIs("status " + status);
    }
    String type = mediaType(contentType);
    if (!HTML_TYPES.contains(type)) {
      return new ReturnAsIs(type.isEmpty() ? "no Content-Type" : "not HTML: " + type);
    }
    return new Render();
  }

  /** Whether the status is a redirect that names its target (304 is not one). */
  static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  /** {@code text/html; charset=utf-8} → {@code text/html}. */
  static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return type.strip().toLowerCase(Locale.ROOT);
  }
}
