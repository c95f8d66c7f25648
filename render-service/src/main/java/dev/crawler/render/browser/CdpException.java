package dev.crawler.render.browser;

/** The browser answered a command with an error, or the connection ended before it answered. */
final class CdpException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  CdpException(String message) {
    super(message);
  }
}
