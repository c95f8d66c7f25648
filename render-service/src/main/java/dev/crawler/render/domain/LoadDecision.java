package dev.crawler.render.domain;

import dev.crawler.schemas.options.Access;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** How the {@link RequestLoader} answers a request of the page: a response, or a refusal. */
public sealed interface LoadDecision {

  /**
   * The response the browser gets, as if from the network.
   *
   * @param status the HTTP status
   * @param headers the response's fields; the body's content coding already removed
   * @param body the decoded body
   */
  record Fulfil(int status, List<Header> headers, byte[] body) implements LoadDecision {

    /**
     * Fields the browser must not see: the framing and content coding of a body it gets decoded and
     * whole; and cookies and other credentials ({@link Access#isCredentialHeader}), which the
     * loader keeps (a script could read them otherwise and carry them to another site).
     */
    static final Set<String> WITHHELD =
        Set.of(
            "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive");

    public Fulfil {
      headers = List.copyOf(headers);
    }

    /** The fields handed to the browser: these less {@link #WITHHELD}. */
    public List<Header> headersForBrowser() {
      return headers.stream()
          .filter(
              h ->
                  !WITHHELD.contains(h.name().toLowerCase(Locale.ROOT))
                      && !Access.isCredentialHeader(h.name()))
          .toList();
    }

    /** The first value of a field, by case-insensitive name; empty when absent. */
    public String header(String name) {
      for (Header header : headers) {
        if (header.name().equalsIgnoreCase(name)) {
          return header.value();
        }
      }
      return "";
    }
  }

  /**
   * Not loaded: the browser sees the request fail as blocked by the client.
   *
   * @param reason why, for the render's record (never a secret)
   */
  record Block(String reason) implements LoadDecision {}
}
