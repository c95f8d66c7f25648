package dev.crawler.fetcher.domain;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The page fetcher of a fetcher or renderer: one {@link PageFetcher} per {@link FetchPath}, and
 * each request goes to the one its call names. A call over a path this instance does not have is
 * answered, without a request, with a failure saying so ({@link
 * FetchAttempt.FailureKind#ACCESS_FAILED}): the frontier sends such requests only to instances that
 * have the path, so it means a misrouted request, never a silent fallback to another path.
 *
 * <p>What is held per origin (sessions, cookies) and the room for bodies are the HTTP path's:
 * {@link #forget}, {@link #forgetCookies} and {@link #hasRoomForAnotherBody} go to every path.
 * Thread-safe when its fetchers are.
 */
public final class FetchPaths implements PageFetcher {

  private final Map<FetchPath, PageFetcher> paths;

  private FetchPaths(Map<FetchPath, PageFetcher> paths) {
    this.paths = paths;
  }

  /** Fetches over HTTP only. */
  public static FetchPaths http(PageFetcher http) {
    Map<FetchPath, PageFetcher> paths = new EnumMap<>(FetchPath.class);
    paths.put(FetchPath.HTTP, http);
    return new FetchPaths(paths);
  }

  /** These paths, and {@code fetcher} for {@code path}. */
  public FetchPaths with(FetchPath path, PageFetcher fetcher) {
    Map<FetchPath, PageFetcher> more = new EnumMap<>(paths);
    more.put(path, fetcher);
    return new FetchPaths(more);
  }

  /** Whether requests over this path can be fetched here. */
  public boolean has(FetchPath path) {
    return paths.containsKey(path);
  }

  @Override
  public CompletableFuture<FetchAttempt> fetch(Call call) {
    PageFetcher fetcher = paths.get(call.path());
    if (fetcher == null) {
      return CompletableFuture.completedFuture(
          new FetchAttempt.Failure(
              FetchAttempt.FailureKind.ACCESS_FAILED,
              "this instance cannot fetch over " + call.path(),
              0));
    }
    return fetcher.fetch(call);
  }

  @Override
  public void forget(String origin) {
    paths.values().forEach(fetcher -> fetcher.forget(origin));
  }

  @Override
  public int forgetCookies() {
    return paths.values().stream().mapToInt(PageFetcher::forgetCookies).sum();
  }

  @Override
  public boolean hasRoomForAnotherBody() {
    return paths.values().stream().allMatch(PageFetcher::hasRoomForAnotherBody);
  }

  /** Closes every path, the last one first (a browser path before the HTTP path it uses). */
  @Override
  public void close() {
    FetchPath[] all = FetchPath.values();
    for (int i = all.length - 1; i >= 0; i--) {
      PageFetcher fetcher = paths.get(all[i]);
      if (fetcher != null) {
        fetcher.close();
      }
    }
  }
}
