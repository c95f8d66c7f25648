package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.render.Listeners;
import dev.crawler.render.SiteLoader;
import dev.crawler.render.TestBrowser;
import dev.crawler.render.TestSite;
import dev.crawler.render.TestSite.Page;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.render.domain.RenderOutcome;
import dev.crawler.render.domain.RenderOutcome.FailureReason;
import dev.crawler.render.domain.RenderOutcome.Rendered;
import dev.crawler.render.domain.RenderOutcome.Settled;
import dev.crawler.render.domain.RenderSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The renderer against a real browser and a Jetty site on 127.0.0.1. */
class RendererIT {

  @TempDir static Path profiles;
  private static TestSite site;
  private static Listeners elsewhere;
  private static Listeners sameHost;
  private static Renderer renderer;

  @BeforeAll
  static void start() throws Exception {
    TestBrowser.require();
    site = new TestSite();
    elsewhere = new Listeners("127.0.0.2");
    sameHost = new Listeners("127.0.0.1");
    renderer = new Renderer(TestBrowser.settings(profiles).build(), InstantSource.system());
    site.serve(
            "/script-links",
            Page.html(
                "<!DOCTYPE html><html><head><title>app</title></head><body><div id=\"app\"></div>"
                    + "<script>const app = document.getElementById('app');"
                    + "for (let i = 1; i <= 3; i++) { const a = document.createElement('a');"
                    + " a.href = '/built-' + i; a.textContent = 'link ' + i; app.appendChild(a); }"
                    + "</script></body></html>"))
        .serve(
            "/fetch-json",
            Page.html(
                "<html><body><p id=\"out\">loading</p><script>"
                    + "fetch('/data.json').then(r => r.json())"
                    + ".then(d => { document.getElementById('out').textContent = d.text; });"
                    + "</script></body></html>"))
        .serve("/data.json", Page.of("application/json", "{\"text\":\"text from the JSON\"}"))
        .serve(
            "/timer-links",
            Page.html(
                "<html><body><ul id=\"list\"></ul><script>"
                    + "setTimeout(() => { const li = document.createElement('li');"
                    + " li.innerHTML = '<a href=\"/late\">late link</a>';"
                    + " document.getElementById('list').appendChild(li); }, 300);"
                    + "</script></body></html>"))
        .serve(
            "/loop",
            Page.html(
                "<html><body><p>before the loop</p><script>while (true) {}</script></body></html>"))
        .serve("/not-html", Page.of("application/pdf", "%PDF-1.4 not really"))
        .serve("/redirect", new Page(302, Map.of("Location", "/script-links"), ""))
        .serve(
            "/dialog",
            Page.html(
                "<html><body><script>alert('hello'); document.body.append('after the alert');"
                    + "</script></body></html>"))
        .serve(
            "/navigates",
            Page.html(
                "<html><body><p>stays here</p><script>"
                    + "setTimeout(() => { location.href = '/elsewhere'; }, 50);</script></body></html>"))
        .serve(
            "/big",
            Page.html(
                "<html><body><script>document.body.textContent = 'x'.repeat(300000);"
                    + "</script></body></html>"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (renderer != null) {
      renderer.close();
    }
    if (site != null) {
      site.close();
      elsewhere.close();
      sameHost.close();
    }
  }

  private static RenderOutcome render(String path) {
    return render(path, 0, new SiteLoader(site.origin()));
  }

  private static RenderOutcome render(String path, int maxRedirects, SiteLoader loader) {
    return renderer
        .render(site.url(path), maxRedirects, loader)
        .orTimeout(30, TimeUnit.SECONDS)
        .join();
  }

  private static Rendered rendered(RenderOutcome outcome) {
    assertThat(outcome).isInstanceOf(Rendered.class);
    return (Rendered) outcome;
  }

  @Test
  void linksBuiltByScriptAreInTheDom() {
    Rendered page = rendered(render("/script-links"));

    assertThat(page.html())
        .startsWith("<!DOCTYPE html>")
        .contains("<a href=\"/built-1\">link 1</a>", "href=\"/built-3\"");
    assertThat(page.main().status()).isEqualTo(200);
    assertThat(page.settled()).isEqualTo(Settled.QUIET);
    assertThat(page.url()).isEqualTo(site.url("/script-links"));
  }

  @Test
  void textFromFetchedJsonIsInTheDom() {
    SiteLoader loader = new SiteLoader(site.origin());
    Rendered page = rendered(render("/fetch-json", 0, loader));

    assertThat(page.html()).contains("<p id=\"out\">text from the JSON</p>");
    assertThat(loader.asked())
        .extracting(InterceptedRequest::url)
        .containsExactly(site.url("/fetch-json"), site.url("/data.json"));
    assertThat(loader.asked().get(0).isMainDocument()).isTrue();
    assertThat(loader.asked().get(1).isMainDocument()).isFalse();
  }

  @Test
  void linksAddedAfterATimerAreInTheDom() {
    Rendered page = rendered(render("/timer-links"));

    assertThat(page.html()).contains("<a href=\"/late\">late link</a>");
  }

  @Test
  void aPageThatLoopsForeverTimesOutWithinTheBound() {
    rendered(render("/script-links")); // the browser started: the bound is the page's alone
    long start = System.nanoTime();
    RenderOutcome outcome = render("/loop");
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(outcome).isInstanceOf(RenderOutcome.TimedOut.class);
    assertThat(((RenderOutcome.TimedOut) outcome).detail()).contains("did not yield");
    assertThat(tookMillis).isLessThan(8_000 + 2_000 + 2_000);
    // the browser still serves the next page
    assertThat(rendered(render("/script-links")).html()).contains("/built-2");
  }

  @Test
  void aRedirectIsFollowedWithinTheCallsRedirects() {
    Rendered page = rendered(render("/redirect", 1, new SiteLoader(site.origin())));

    assertThat(page.url()).isEqualTo(site.url("/script-links"));
    assertThat(page.redirectChain()).containsExactly(site.url("/redirect"));
    assertThat(page.html()).contains("/built-1");
  }

  @Test
  void aRedirectBeyondThemIsReturnedUnrendered() {
    RenderOutcome outcome = render("/redirect");

    assertThat(outcome).isInstanceOf(RenderOutcome.NotRendered.class);
    assertThat(((RenderOutcome.NotRendered) outcome).main().status()).isEqualTo(302);
  }

  @Test
  void whatIsNotAnHtmlPageIsReturnedUnrendered() {
    assertThat(render("/not-html"))
        .isInstanceOfSatisfying(
            RenderOutcome.NotRendered.class,
            notRendered -> assertThat(notRendered.reason()).contains("application/pdf"));
    assertThat(render("/missing"))
        .isInstanceOfSatisfying(
            RenderOutcome.NotRendered.class,
            notRendered -> assertThat(notRendered.main().status()).isEqualTo(404));
  }

  @Test
  void aMainDocumentTheLoaderRefusesFailsTheRender() {
    RenderOutcome outcome = render("/script-links", 0, new SiteLoader("http://elsewhere.test"));

    assertThat(outcome)
        .isInstanceOfSatisfying(
            RenderOutcome.Failed.class,
            failed -> {
              assertThat(failed.reason()).isEqualTo(FailureReason.MAIN_DOCUMENT_BLOCKED);
              assertThat(failed.detail()).isEqualTo("not an allowed origin");
            });
  }

  @Test
  void aDialogIsDismissed() {
    assertThat(rendered(render("/dialog")).html()).contains("after the alert");
  }

  @Test
  void aScriptNavigatingAwayLeavesThePageWhereItIsAndItsTargetRecorded() {
    SiteLoader loader = new SiteLoader(site.origin());
    Rendered page = rendered(render("/navigates", 0, loader));

    assertThat(page.html()).contains("stays here");
    assertThat(page.stats().navigationsIgnored()).containsExactly(site.url("/elsewhere"));
    assertThat(loader.fetched()).doesNotContain(site.url("/elsewhere"));
  }

  @Test
  void aDomOverTheLimitIsCutAndMarked() throws Exception {
    try (Renderer small =
        new Renderer(
            TestBrowser.settings(profiles).maxDomBytes(100_000).build(), InstantSource.system())) {
      RenderOutcome outcome =
          small
              .render(site.url("/big"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join();

      Rendered page = rendered(outcome);
      assertThat(page.truncated()).isTrue();
      assertThat(page.html().length()).isEqualTo(100_000);
    }
  }

  @Test
  void severalPagesRenderAtOnce() {
    List<CompletableFuture<RenderOutcome>> renders = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      renders.add(renderer.render(site.url("/fetch-json"), 0, new SiteLoader(site.origin())));
    }
    for (CompletableFuture<RenderOutcome> render : renders) {
      assertThat(rendered(render.orTimeout(60, TimeUnit.SECONDS).join()).html())
          .contains("text from the JSON");
    }
  }

  @Test
  void aBrowserKilledIsReplaced() {
    rendered(render("/script-links"));
    OptionalLong pid = renderer.browserPid();
    assertThat(pid).isPresent();
    ProcessHandle.of(pid.getAsLong()).ifPresent(ProcessHandle::destroyForcibly);
    await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid.getAsLong()).isEmpty());

    assertThat(rendered(render("/script-links")).html()).contains("/built-1");
    assertThat(renderer.browserPid()).isPresent().isNotEqualTo(pid);
  }

  @Test
  void nothingThePageTriesReachesAnotherAddressOrPort() {
    String other = elsewhere.tcpAuthority();
    String local = sameHost.tcpAuthority();
    site.serve(
        "/escape",
        Page.html(
            "<html><head><link rel=\"preconnect\" href=\"http://"
                + other
                + "\"><link rel=\"dns-prefetch\" href=\"http://"
                + other
                + "\"><link rel=\"stylesheet\" href=\"http://"
                + local
                + "/style.css\"></head><body><p id=\"out\">page</p>"
                + "<img src=\"http://"
                + other
                + "/pixel.png\"><iframe src=\"http://"
                + other
                + "/frame\"></iframe><script src=\"http://"
                + local
                + "/script.js\"></script><script>"
                + "fetch('http://"
                + other
                + "/secret').catch(() => {});"
                + "fetch('http://"
                + local
                + "/secret', {mode: 'no-cors'}).catch(() => {});"
                + "navigator.sendBeacon('http://"
                + other
                + "/beacon', 'x');"
                + "new EventSource('http://"
                + other
                + "/events');"
                + "const x = new XMLHttpRequest(); x.open('GET', 'http://"
                + local
                + "/xhr'); x.send();"
                + "</script></body></html>"));
    SiteLoader loader = new SiteLoader(site.origin());

    Rendered page = rendered(render("/escape", 0, loader));

    assertThat(page.html()).contains("page");
    assertThat(loader.fetched()).containsExactly(site.url("/escape"));
    assertThat(loader.asked())
        .extracting(InterceptedRequest::url)
        .contains("http://" + other + "/secret", "http://" + local + "/xhr");
    assertThat(page.stats().blocked()).isGreaterThanOrEqualTo(5);
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> elsewhere.arrivals() == 0 && sameHost.arrivals() == 0);
  }

  @Test
  void webSocketsAndWebRtcReachNothing() {
    String other = elsewhere.tcpAuthority();
    String local = sameHost.tcpAuthority();
    site.serve(
        "/sockets",
        Page.html(
            "<html><body><p id=\"out\">sockets</p><script>"
                + "const out = document.getElementById('out');"
                + "for (const to of ['ws://"
                + other
                + "/', 'ws://"
                + local
                + "/', 'wss://"
                + other
                + "/']) {"
                + " const ws = new WebSocket(to);"
                + " ws.onerror = () => out.append(' closed:' + to); }"
                + "const pc = new RTCPeerConnection({iceServers: [{urls: 'stun:"
                + elsewhere.udpAuthority()
                + "'}, {urls: 'turn:"
                + elsewhere.udpAuthority()
                + "?transport=udp', username: 'u', credential: 'c'}]});"
                + "pc.createDataChannel('d');"
                + "pc.onicecandidate = e => { if (e.candidate) out.append(' candidate'); };"
                + "pc.createOffer().then(o => pc.setLocalDescription(o));"
                + "</script></body></html>"));
    SiteLoader loader = new SiteLoader(site.origin());

    Rendered page = rendered(render("/sockets", 0, loader));

    assertThat(page.html()).contains("closed:ws://" + other, "closed:ws://" + local);
    assertThat(loader.fetched()).containsExactly(site.url("/sockets"));
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> elsewhere.arrivals() == 0 && sameHost.arrivals() == 0);
  }

  @Test
  void popUpsAreNotOpened() {
    site.serve(
        "/popup",
        Page.html(
            "<html><body><p id=\"out\">opener</p><a id=\"l\" href=\"/popped-link\""
                + " target=\"_blank\">x</a><script>"
                + "const w = window.open('/popped');"
                + "document.getElementById('out').append(w ? ' opened' : ' blocked');"
                + "document.getElementById('l').click();"
                + "window.open('/popped-noopener', '_blank', 'noopener');"
                + "</script></body></html>"));
    SiteLoader loader = new SiteLoader(site.origin());

    Rendered page = rendered(render("/popup", 0, loader));

    assertThat(page.html()).contains("opener blocked"); // window.open returned no window
    assertThat(loader.asked())
        .extracting(InterceptedRequest::url)
        .containsExactly(site.url("/popup"));
    assertThat(site.requested()).doesNotContain("/popped", "/popped-link", "/popped-noopener");
  }

  @Test
  void aTabThatRunsOutOfMemoryCrashesAlone() {
    site.serve(
        "/hog",
        Page.html(
            "<html><body><script>const all = [];"
                + " while (true) { all.push(new Array(1000000).fill(Math.random())); }"
                + "</script></body></html>"));
    try (Renderer small =
        new Renderer(
            TestBrowser.settings(profiles).maxScriptHeapMegabytes(64).build(),
            InstantSource.system())) {
      RenderOutcome outcome =
          small
              .render(site.url("/hog"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join();

      assertThat(outcome)
          .isInstanceOfSatisfying(
              RenderOutcome.Failed.class,
              failed -> assertThat(failed.reason()).isEqualTo(FailureReason.TAB_CRASHED));
      RenderOutcome next =
          small
              .render(site.url("/script-links"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join();
      assertThat(rendered(next).html()).contains("/built-1");
    }
  }

  @Test
  void aBrowserIsRetiredAfterItsPages() {
    RenderSettings settings = TestBrowser.settings(profiles).pagesPerBrowser(2).build();
    try (Renderer recycling = new Renderer(settings, InstantSource.system())) {
      List<Long> pids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        rendered(
            recycling
                .render(site.url("/script-links"), 0, new SiteLoader(site.origin()))
                .orTimeout(30, TimeUnit.SECONDS)
                .join());
        pids.add(recycling.browserPid().orElseThrow());
      }

      assertThat(pids.get(0)).isEqualTo(pids.get(1));
      assertThat(pids.get(2)).isNotEqualTo(pids.get(0));
      await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pids.get(0)).isEmpty());
    }
  }

  @Test
  void theBrowserPresentsTheCrawlersUserAgent() {
    site.serve(
        "/agent",
        Page.html(
            "<html><body><p id=\"ua\"></p><script>"
                + "document.getElementById('ua').textContent = navigator.userAgent + ' | '"
                + " + (navigator.userAgentData ? JSON.stringify(navigator.userAgentData.brands) : '');"
                + "</script></body></html>"));
    SiteLoader loader = new SiteLoader(site.origin());

    Rendered page = rendered(render("/agent", 0, loader));

    assertThat(page.html()).contains("render-test/1.0").doesNotContain("HeadlessChrome");
    assertThat(loader.asked().get(0).headers())
        .containsEntry("User-Agent", "render-test/1.0 (+https://crawler.test/bot)");
  }

  @Test
  void aBrowserThatStopsAnsweringIsReplaced() throws Exception {
    RenderSettings settings =
        TestBrowser.settings(profiles)
            .commandTimeout(Duration.ofSeconds(5))
            .maxWait(Duration.ofSeconds(6))
            .build();
    try (Renderer stalling = new Renderer(settings, InstantSource.system())) {
      rendered(
          stalling
              .render(site.url("/script-links"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join());
      long stopped = stalling.browserPid().orElseThrow();
      assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(stopped)).start().waitFor())
          .isZero();

      RenderOutcome stuck =
          stalling
              .render(site.url("/script-links"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join();
      RenderOutcome next =
          stalling
              .render(site.url("/script-links"), 0, new SiteLoader(site.origin()))
              .orTimeout(30, TimeUnit.SECONDS)
              .join();

      assertThat(stuck)
          .isInstanceOfSatisfying(
              RenderOutcome.Failed.class,
              failed -> assertThat(failed.reason()).isEqualTo(FailureReason.BROWSER_FAILED));
      assertThat(rendered(next).html()).contains("/built-1");
      assertThat(stalling.browserPid()).isPresent().isNotEqualTo(OptionalLong.of(stopped));
      await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(stopped).isEmpty());
    }
  }

  @Test
  void theNextPageOfAnOriginFindsNothingTheLastOneStored() {
    site.serve(
        "/storage",
        Page.html(
            "<html><body><p id=\"out\"></p><script>"
                + "const before = 'stored=' + localStorage.getItem('k') + ' cookie=' + document.cookie;"
                + "localStorage.setItem('k', 'v'); document.cookie = 'c=1';"
                + "document.getElementById('out').textContent = before;"
                + "</script></body></html>"));

    try (Renderer fresh =
        new Renderer(TestBrowser.settings(profiles).build(), InstantSource.system())) {
      String first = rendered(renderIn(fresh, "/storage")).html();
      await().atMost(Duration.ofSeconds(10)).until(() -> fresh.idleTabs() == 1);
      String second = rendered(renderIn(fresh, "/storage")).html();

      assertThat(first).contains("stored=null cookie=<");
      assertThat(second).contains("stored=null cookie=<");
      // the second page had the first one's tab: one kept, not two
      await().atMost(Duration.ofSeconds(10)).until(() -> fresh.idleTabs() == 1);
    }
  }

  private static RenderOutcome renderIn(Renderer renderer, String path) {
    return renderer
        .render(site.url(path), 0, new SiteLoader(site.origin()))
        .orTimeout(30, TimeUnit.SECONDS)
        .join();
  }

  @Test
  void requestsBeyondThePagesCapFail() {
    site.serve(
        "/many",
        Page.html(
            "<html><body><p id=\"out\"></p><script>"
                + "const all = [];"
                + "for (let i = 0; i < 30; i++) { all.push(fetch('/data.json?n=' + i)"
                + ".then(() => 'ok', () => 'failed')); }"
                + "Promise.all(all).then(r => { document.getElementById('out').textContent ="
                + " r.filter(x => x === 'ok').length + ' fetched'; });"
                + "</script></body></html>"));
    site.serve("/data.json?n=0", Page.of("application/json", "{}"));
    SiteLoader loader = new SiteLoader(site.origin());
    try (Renderer capped =
        new Renderer(
            TestBrowser.settings(profiles).maxRequestsPerPage(10).build(),
            InstantSource.system())) {
      Rendered page =
          rendered(
              capped.render(site.url("/many"), 0, loader).orTimeout(30, TimeUnit.SECONDS).join());

      assertThat(loader.asked()).hasSize(10);
      assertThat(page.stats().requests()).isEqualTo(31);
      assertThat(page.stats().blocked()).isEqualTo(21);
      assertThat(page.html()).contains("9 fetched");
    }
  }
}
