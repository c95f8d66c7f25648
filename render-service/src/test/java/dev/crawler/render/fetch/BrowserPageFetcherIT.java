package dev.crawler.render.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.http.JettyPageFetcher;
import dev.crawler.render.Listeners;
import dev.crawler.render.TestBrowser;
import dev.crawler.render.TestSite;
import dev.crawler.render.TestSite.Page;
import dev.crawler.render.browser.Renderer;
import dev.crawler.render.domain.RenderOutcome;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser page fetcher with the crawler's Jetty page fetcher making every request: its address
 * guard, User-Agent and conditional headers apply to a rendered page as to a plain fetch.
 */
class BrowserPageFetcherIT {

  private static final String FETCHER_AGENT = "render-test-fetcher/1.0";

  @TempDir static Path profiles;
  private static TestSite site;
  private static Listeners internal;
  private static JettyPageFetcher jetty;
  private static BrowserPageFetcher fetcher;

  @BeforeAll
  static void start() throws Exception {
    TestBrowser.require();
    site = new TestSite();
    internal = new Listeners("127.0.0.2");
    jetty =
        JettyPageFetcher.builder(FETCHER_AGENT)
            .maxBodyBytes(1024 * 1024)
            .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(5))
            .addresses(
                AddressPolicy.defaults().allowing(List.of(InetAddress.getByName("127.0.0.1"))))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .build();
    Renderer renderer =
        new Renderer(TestBrowser.settings(profiles).build(), InstantSource.system());
    SubresourcePolicy policy =
        request ->
            CompletableFuture.completedFuture(
                request.url().endsWith("/disallowed.js")
                    ? Optional.of("robots.txt disallows it")
                    : Optional.empty());
    fetcher = new BrowserPageFetcher(renderer, jetty, policy);
    site.serve(
            "/app",
            new Page(
                200,
                Map.of(
                    "Content-Type",
                    "text/html; charset=iso-8859-1",
                    "ETag",
                    "\"v1\"",
                    "X-Site",
                    "kept",
                    "Set-Cookie",
                    "session=s3cret; Path=/"),
                "<html><body><div id=\"app\"></div><p id=\"cookie\"></p>"
                    + "<script src=\"/disallowed.js\"></script><script>"
                    + "document.getElementById('cookie').textContent = 'cookie=[' + document.cookie + ']';"
                    + "fetch('/links.json').then(r => r.json()).then(links => {"
                    + " for (const href of links) { const a = document.createElement('a');"
                    + " a.href = href; a.textContent = href;"
                    + " document.getElementById('app').appendChild(a); } });"
                    + "fetch('http://"
                    + internal.tcpAuthority()
                    + "/admin').catch(() => {});"
                    + "</script></body></html>"))
        .serve("/links.json", Page.of("application/json", "[\"/one\", \"/two\"]"))
        .serve("/disallowed.js", Page.of("text/javascript", "document.body.append('ran');"))
        .serve("/moved", new Page(301, Map.of("Location", "/app"), ""));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fetcher != null) {
      fetcher.close();
      jetty.close();
      site.close();
      internal.close();
    }
  }

  private static FetchAttempt fetch(Call call) {
    return fetcher.fetch(call).orTimeout(30, TimeUnit.SECONDS).join();
  }

  @Test
  void aRenderedPageIsItsDomWithTheMainDocumentsStatusAndHeaders() {
    BrowserPageFetcher.Rendering rendering =
        fetcher
            .render(Call.get(site.url("/app"), Map.of(), 0))
            .orTimeout(30, TimeUnit.SECONDS)
            .join();

    assertThat(rendering.outcome()).isInstanceOf(RenderOutcome.Rendered.class);
    FetchAttempt.Response response = (FetchAttempt.Response) rendering.attempt();
    String body = new String(response.body(), StandardCharsets.UTF_8);
    assertThat(body).contains("<a href=\"/one\">/one</a>", "<a href=\"/two\">/two</a>");
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.header("Content-Type")).contains("text/html; charset=utf-8");
    assertThat(response.contentType()).contains("text/html");
    assertThat(response.charset()).contains("UTF-8");
    assertThat(response.rendered()).isTrue();
    assertThat(response.header("X-Site")).contains("kept");
    assertThat(response.header("ETag")).contains("\"v1\"");
    assertThat(response.url()).isEqualTo(site.url("/app"));
    // the site's cookie stays with the fetcher: the page's scripts do not see it
    assertThat(body).contains("cookie=[]");
    // the resource policy refused the script: it was neither fetched nor run
    assertThat(body).doesNotContain(">ran<").doesNotContain("</script>ran");
    assertThat(site.requested()).doesNotContain("/disallowed.js");
  }

  @Test
  void everyRequestIsTheFetchersAndTheAddressGuardStopsTheRest() {
    int before = site.requested().size();
    fetch(Call.get(site.url("/app"), Map.of(), 0));

    assertThat(site.requested().subList(before, site.requested().size()))
        .containsExactly("/app", "/links.json");
    assertThat(site.userAgents()).allMatch(FETCHER_AGENT::equals);
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> internal.arrivals() == 0);
  }

  @Test
  void theCallsConditionalHeadersGoWithTheMainDocument() {
    FetchAttempt attempt = fetch(Call.get(site.url("/app"), Map.of("If-None-Match", "\"v1\""), 0));

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class, response -> assertThat(response.status()).isEqualTo(304));
  }

  @Test
  void aRedirectIsReturnedUnlessTheCallFollowsIt() {
    FetchAttempt recorded = fetch(Call.get(site.url("/moved"), Map.of(), 0));
    FetchAttempt followed = fetch(Call.get(site.url("/moved"), Map.of(), 1));

    assertThat(recorded)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.status()).isEqualTo(301);
              assertThat(response.header("Location")).contains("/app");
            });
    assertThat(followed)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.status()).isEqualTo(200);
              assertThat(response.url()).isEqualTo(site.url("/app"));
              assertThat(response.redirectChain()).containsExactly(site.url("/moved"));
              assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("/two");
            });
  }

  @Test
  void whatIsNotAPageComesBackAsTheFetcherReturnedIt() {
    FetchAttempt missing = fetch(Call.get(site.url("/missing"), Map.of(), 0));
    FetchAttempt json = fetch(Call.get(site.url("/links.json"), Map.of(), 0));
    FetchAttempt denied = fetch(Call.get("http://" + internal.tcpAuthority() + "/", Map.of(), 0));

    assertThat(missing)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.status()).isEqualTo(404);
              assertThat(new String(response.body(), StandardCharsets.UTF_8))
                  .isEqualTo("not found");
            });
    assertThat(json)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> assertThat(response.contentType()).contains("application/json"));
    assertThat(denied)
        .isInstanceOfSatisfying(
            FetchAttempt.Failure.class,
            failure -> assertThat(failure.kind()).isEqualTo(FailureKind.ADDRESS_DENIED));
    assertThat(internal.arrivals()).isZero();
  }
}
