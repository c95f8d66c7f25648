package dev.crawler.render.fetch;

import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.render.domain.ForwardedHeaders;
import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.render.domain.LoadDecision;
import dev.crawler.render.domain.RequestLoader;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The loader of one render of a {@link Call}: each request of the page is made by the delegate
 * {@link PageFetcher}, one hop at a time (the browser follows redirects, so each hop is a request
 * of its own, judged again). The main document's request carries the call's headers (conditional
 * ones among them) and metadata filters; the call's site access (credentials, cookies, headers)
 * goes only to requests to the call's own origin, the rest get it without credentials ({@link
 * SiteAccess#forRobots()}). Only GET and HEAD are made; a page's POST fails as blocked. The main
 * document's attempts are kept, for the fetch result. Thread-safe.
 */
final class CallLoader implements RequestLoader {

  private final Call call;
  private final PageFetcher delegate;
  private final SubresourcePolicy policy;
  private final String origin;
  private final List<FetchAttempt> mainAttempts = new ArrayList<>();

  CallLoader(Call call, PageFetcher delegate, SubresourcePolicy policy) {
    this.call = call;
    this.delegate = delegate;
    this.policy = policy;
    this.origin = originOf(call.url());
  }

  @Override
  public CompletableFuture<LoadDecision> load(InterceptedRequest request) {
    String scheme = schemeOf(request.url());
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return blocked("scheme " + scheme + " is not fetched");
    }
    String method = request.method().toUpperCase(Locale.ROOT);
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return blocked("method " + method + " is not made by the crawler");
    }
    boolean isHead = method.equals("HEAD");
    Map<String, String> headers = ForwardedHeaders.of(request.headers());
    SiteAccess access =
        !origin.isEmpty() && originOf(request.url()).equals(origin)
            ? call.access()
            : call.access().forRobots();
    if (request.isMainDocument()) {
      boolean first;
      synchronized (mainAttempts) {
        first = mainAttempts.isEmpty();
      }
      if (first) {
        Map<String, String> merged = new LinkedHashMap<>(headers);
        merged.putAll(call.headers());
        headers = merged;
      }
      Call hop =
          new Call(request.url(), false, headers, 0, first ? call.metadataFilters() : null, access);
      return delegate
          .fetch(hop)
          .thenApply(
              attempt -> {
                synchronized (mainAttempts) {
                  mainAttempts.add(attempt);
                }
                return decide(attempt);
              });
    }
    Call resource = new Call(request.url(), isHead, headers, 0, null, access);
    return policy
        .refusal(request)
        .thenCompose(
            refusal ->
                refusal.isPresent()
                    ? blocked(refusal.get())
                    : delegate.fetch(resource).thenApply(CallLoader::decide));
  }

  /** The main document's attempts so far, in order: its redirects', then its own. */
  List<FetchAttempt> mainAttempts() {
    synchronized (mainAttempts) {
      return List.copyOf(mainAttempts);
    }
  }

  private static LoadDecision decide(FetchAttempt attempt) {
    if (attempt instanceof FetchAttempt.Response response) {
      List<Header> headers = new ArrayList<>();
      response.headers().forEach((name, value) -> headers.add(new Header(name, value)));
      return new LoadDecision.Fulfil(response.status(), headers, response.body());
    }
    FetchAttempt.Failure failure = (FetchAttempt.Failure) attempt;
    return new LoadDecision.Block(failure.kind() + ": " + failure.detail());
  }

  private static CompletableFuture<LoadDecision> blocked(String reason) {
    return CompletableFuture.completedFuture(new LoadDecision.Block(reason));
  }

  private static String schemeOf(String url) {
    int colon = url.indexOf(':');
    return colon < 0 ? "" : url.substring(0, colon).toLowerCase(Locale.ROOT);
  }

  private static String originOf(String url) {
    try {
      return Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      return "";
    }
  }
}
