package dev.crawler.render.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.render.domain.LoadDecision;
import dev.crawler.schemas.options.Access;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class CallLoaderTest {

  private static final String PAGE = "http://site.test/app";

  /** Answers every call with a page, or a failure for URLs ending in /fail; records the calls. */
  private static final class RecordingFetcher implements PageFetcher {
    final List<Call> calls = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<FetchAttempt> fetch(Call call) {
      calls.add(call);
      if (call.url().endsWith("/fail")) {
        return CompletableFuture.completedFuture(
            new FetchAttempt.Failure(FailureKind.ADDRESS_DENIED, "10.0.0.1 is private", 1));
      }
      return CompletableFuture.completedFuture(
          new FetchAttempt.Response(
              200,
              Map.of("Content-Type", "text/plain"),
              "body".getBytes(StandardCharsets.UTF_8),
              Optional.of("text/plain"),
              Optional.empty(),
              1));
    }

    @Override
    public void close() {}
  }

  private final RecordingFetcher fetcher = new RecordingFetcher();
  private final SiteAccess withCredentials =
      new SiteAccess(
          List.of(new Access.Header("Authorization", "Bearer ${env:TOKEN}")),
          true,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          false);
  private final PageFetcher.Call call =
      new PageFetcher.Call(
          PAGE, false, Map.of("If-None-Match", "\"v1\""), 2, null, withCredentials);

  private static InterceptedRequest request(String url, String method, boolean isMain) {
    return new InterceptedRequest(
        url,
        method,
        Map.of("Accept", "*/*", "Cookie", "a=b", "User-Agent", "HeadlessChrome"),
        isMain ? "Document" : "Script",
        isMain,
        PAGE);
  }

  private LoadDecision load(CallLoader loader, InterceptedRequest request) {
    return loader.load(request).join();
  }

  @Test
  void theMainDocumentCarriesTheCallsHeadersOnItsFirstRequestOnly() {
    CallLoader loader = new CallLoader(call, fetcher, SubresourcePolicy.ALLOW_ALL);

    load(loader, request(PAGE, "GET", true));
    load(loader, request("http://site.test/next", "GET", true));

    assertThat(fetcher.calls.get(0).headers())
        .containsEntry("If-None-Match", "\"v1\"")
        .containsEntry("Accept", "*/*")
        .doesNotContainKeys("Cookie", "User-Agent");
    assertThat(fetcher.calls.get(1).headers()).doesNotContainKey("If-None-Match");
    assertThat(fetcher.calls).allMatch(c -> c.maxRedirects() == 0);
    assertThat(loader.mainAttempts()).hasSize(2);
  }

  @Test
  void theSitesCredentialsGoToItsOwnOriginOnly() {
    CallLoader loader = new CallLoader(call, fetcher, SubresourcePolicy.ALLOW_ALL);

    load(loader, request("http://site.test/app.js", "GET", false));
    load(loader, request("http://cdn.test/lib.js", "GET", false));

    assertThat(fetcher.calls.get(0).access()).isEqualTo(withCredentials);
    assertThat(fetcher.calls.get(1).access()).isEqualTo(withCredentials.forRobots());
    assertThat(fetcher.calls.get(1).access().carriesCredentials()).isFalse();
  }

  @Test
  void onlyGetAndHeadOverHttpAreMade() {
    CallLoader loader = new CallLoader(call, fetcher, SubresourcePolicy.ALLOW_ALL);

    assertThat(load(loader, request("http://site.test/api", "POST", false)))
        .isEqualTo(new LoadDecision.Block("method POST is not made by the crawler"));
    assertThat(load(loader, request("ftp://site.test/f", "GET", false)))
        .isEqualTo(new LoadDecision.Block("scheme ftp is not fetched"));
    assertThat(load(loader, request("http://site.test/h", "HEAD", false)))
        .isInstanceOf(LoadDecision.Fulfil.class);
    assertThat(fetcher.calls).singleElement().matches(PageFetcher.Call::isHead);
  }

  @Test
  void thePolicyRefusesAResourceBeforeItIsFetched() {
    CallLoader loader =
        new CallLoader(
            call,
            fetcher,
            request -> CompletableFuture.completedFuture(Optional.of("robots.txt disallows it")));

    assertThat(load(loader, request("http://site.test/private.js", "GET", false)))
        .isEqualTo(new LoadDecision.Block("robots.txt disallows it"));
    assertThat(fetcher.calls).isEmpty();
  }

  @Test
  void aResponseIsFulfilledAndAFailureBlocked() {
    CallLoader loader = new CallLoader(call, fetcher, SubresourcePolicy.ALLOW_ALL);

    LoadDecision fetched = load(loader, request("http://site.test/a.js", "GET", false));
    LoadDecision failed = load(loader, request("http://site.test/fail", "GET", false));

    assertThat(fetched)
        .isInstanceOfSatisfying(
            LoadDecision.Fulfil.class,
            fulfil -> {
              assertThat(fulfil.status()).isEqualTo(200);
              assertThat(fulfil.headers())
                  .containsExactly(new Header("Content-Type", "text/plain"));
            });
    assertThat(failed).isEqualTo(new LoadDecision.Block("ADDRESS_DENIED: 10.0.0.1 is private"));
  }
}
