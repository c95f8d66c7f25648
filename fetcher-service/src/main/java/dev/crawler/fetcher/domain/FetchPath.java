package dev.crawler.fetcher.domain;

/** The way a page is fetched. */
public enum FetchPath {
  /** One HTTP request (and the redirects followed within it): the body as the server sent it. */
  HTTP,
  /**
   * Loaded in a headless browser: the page's scripts run and the body is the document they built;
   * every request the browser makes goes through the HTTP path's guard.
   */
  BROWSER
}
