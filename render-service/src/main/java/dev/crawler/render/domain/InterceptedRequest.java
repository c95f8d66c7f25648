package dev.crawler.render.domain;

import java.util.Map;

/**
 * A request the page made, held by the browser until the {@link RequestLoader} answers it.
 *
 * @param url the absolute URL, fragment removed
 * @param method GET, POST, …
 * @param headers the headers the browser would have sent (names as the browser writes them)
 * @param resourceType the browser's type for it: {@code Document}, {@code Script}, {@code Fetch},
 *     {@code XHR}, {@code Stylesheet}, {@code Image}, … (the DevTools protocol's {@code
 *     Network.ResourceType})
 * @param isMainDocument whether it loads the page itself (the top frame's document, or a redirect
 *     of it), not a resource of the page
 * @param pageUrl the URL the render was asked for
 */
public record InterceptedRequest(
    String url,
    String method,
    Map<String, String> headers,
    String resourceType,
    boolean isMainDocument,
    String pageUrl) {

  public InterceptedRequest {
    headers = Map.copyOf(headers);
  }
}
