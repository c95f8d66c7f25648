package dev.crawler.frontier.rules;

/** A crawl configuration that cannot be used; the message names the file, the line and the key. */
public final class CrawlConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CrawlConfigException(String message) {
    super(message);
  }
}
