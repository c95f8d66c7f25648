package dev.crawler.fetcher.domain;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Fetches one URL over HTTP (StormCrawler's {@code Protocol}): the narrow interface between the
 * crawler and its HTTP client. Implementations are asynchronous and thread-safe, and never complete the
 * future exceptionally: every way a request can end is a {@link FetchAttempt}.
 */
public interface PageFetcher extends AutoCloseable {

  /**
   * Starts a GET.
   *
   * @param headers request headers to add (e.g. If-None-Match)
   * @param maxRedirects redirects followed within this request (implementations may cap it); 0 to
   *     return a 3xx as it is
   */
  CompletableFuture<FetchAttempt> get(String url, Map<String, String> headers, int maxRedirects);

  @Override
  void close();
}
