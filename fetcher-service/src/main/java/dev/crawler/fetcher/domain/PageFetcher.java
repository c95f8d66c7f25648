package dev.crawler.fetcher.domain;

import crawlercommons.robots.BaseRobotRules;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Fetches one URL: the narrow interface between the crawler and the ways it fetches (its HTTP
 * client, a browser), which {@link FetchPaths} picks among per request. Implementations are
 * asynchronous and thread-safe, and never complete the future exceptionally: every way a request
 * can end is a {@link FetchAttempt}.
 */
public interface PageFetcher extends AutoCloseable {

  /**
   * One request to make.
   *
   * @param isHead HEAD instead of GET
   * @param headers request headers to add (e.g. If-None-Match)
   * @param maxRedirects redirects followed within this request, each recorded in the response's
   *     chain; 0 to return a 3xx as it is
   * @param metadataFilters when set, a 2xx response whose Content-Type or Content-Length they
   *     reject ends as {@link FetchAttempt.FailureKind#REJECTED_METADATA}, its body unread
   * @param access how the site is reached: headers, cookies, credentials, proxy
   * @param path the way the page is fetched: over HTTP, or loaded in a browser
   * @param robots the origin's robots.txt rules, when they are obeyed: a browser loading the page
   *     asks them of each resource of the page's origin
   */
  record Call(
      String url,
      boolean isHead,
      Map<String, String> headers,
      int maxRedirects,
      @Nullable FetchOptions metadataFilters,
      SiteAccess access,
      FetchPath path,
      @Nullable BaseRobotRules robots) {

    public Call {
      headers = Map.copyOf(headers);
    }

    /** A request over a path, no robots.txt rules given. */
    public Call(
        String url,
        boolean isHead,
        Map<String, String> headers,
        int maxRedirects,
        @Nullable FetchOptions metadataFilters,
        SiteAccess access,
        FetchPath path) {
      this(url, isHead, headers, maxRedirects, metadataFilters, access, path, null);
    }

    /** A request over HTTP. */
    public Call(
        String url,
        boolean isHead,
        Map<String, String> headers,
        int maxRedirects,
        @Nullable FetchOptions metadataFilters,
        SiteAccess access) {
      this(url, isHead, headers, maxRedirects, metadataFilters, access, FetchPath.HTTP);
    }

    /** A plain GET over HTTP. */
    public static Call get(String url, Map<String, String> headers, int maxRedirects) {
      return new Call(url, false, headers, maxRedirects, null, SiteAccess.NONE);
    }

    /** The same request over another path. */
    public Call over(FetchPath other) {
      return new Call(url, isHead, headers, maxRedirects, metadataFilters, access, other, robots);
    }
  }

  /** Starts a request. */
  CompletableFuture<FetchAttempt> fetch(Call call);

  /** Starts a GET. */
  default CompletableFuture<FetchAttempt> get(
      String url, Map<String, String> headers, int maxRedirects) {
    return fetch(Call.get(url, headers, maxRedirects));
  }

  @Override
  void close();

  /**
   * Forgets what the fetcher holds for an origin it no longer serves: its login session, cookie jar
   * and proxy route.
   */
  default void forget(String origin) {}

  /** Drops every origin's cookies and login sessions; returns how many jars there were. */
  default int forgetCookies() {
    return 0;
  }

  /**
   * Whether another request may start now: false while the bodies held leave no room for one more
   * of the largest size.
   */
  default boolean hasRoomForAnotherBody() {
    return true;
  }
}
