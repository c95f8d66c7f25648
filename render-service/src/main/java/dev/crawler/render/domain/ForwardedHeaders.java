package dev.crawler.render.domain;

import dev.crawler.schemas.options.Access;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which of the headers the browser would send go out with a request the loader makes for it: what
 * says what the page wants ({@code Accept}, {@code Referer}, {@code Origin}, a script's own
 * headers), not what the loader decides itself. The loader's own client sets the User-Agent, the
 * content codings, the cookies and the credentials; the browser's client hints name a headless
 * browser and are dropped.
 */
public final class ForwardedHeaders {

  /**
   * Dropped, by lower-case name; and every credential field ({@link Access#isCredentialHeader}),
   * every {@code sec-ch-*} and {@code proxy-*} field.
   */
  static final Set<String> DROPPED =
      Set.of(
          "host",
          "connection",
          "keep-alive",
          "content-length",
          "transfer-encoding",
          "te",
          "upgrade",
          "accept-encoding",
          "user-agent",
          "range");

  private ForwardedHeaders() {}

  /** The browser's headers that go out. */
  public static Map<String, String> of(Map<String, String> browserHeaders) {
    Map<String, String> kept = new LinkedHashMap<>();
    browserHeaders.forEach(
        (name, value) -> {
          if (isForwarded(name)) {
            kept.put(name, value);
          }
        });
    return kept;
  }

  /** Whether a header of the browser's goes out. */
  public static boolean isForwarded(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return !DROPPED.contains(lower)
        && !Access.isCredentialHeader(lower)
        && !lower.startsWith("sec-ch-")
        && !lower.startsWith("proxy-");
  }
}
