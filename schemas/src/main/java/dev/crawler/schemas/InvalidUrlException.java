package dev.crawler.schemas;

/**
 * A URL that cannot be crawled as written: no scheme, no host, a bad port, an impossible host name.
 */
public final class InvalidUrlException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String url;

  public InvalidUrlException(String url, String reason) {
    super("invalid URL '" + url + "': " + reason);
    this.url = url;
  }

  /** The URL as it was given. */
  public String url() {
    return url;
  }
}
