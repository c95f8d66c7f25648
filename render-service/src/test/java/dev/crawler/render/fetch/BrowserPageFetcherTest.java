package dev.crawler.render.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.RenderOutcome;
import dev.crawler.render.domain.RenderOutcome.FailureReason;
import dev.crawler.render.domain.RenderOutcome.MainResponse;
import dev.crawler.render.domain.RenderOutcome.Settled;
import dev.crawler.render.domain.RenderStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrowserPageFetcherTest {

  private static final FetchAttempt.Response REDIRECT =
      new FetchAttempt.Response(
          301,
          Map.of("Location", "/b"),
          new byte[0],
          Optional.empty(),
          Optional.empty(),
          5,
          List.of(),
          "http://s.test/a");
  private static final FetchAttempt.Response PAGE =
      new FetchAttempt.Response(
          200,
          Map.of("Content-Type", "text/html; charset=iso-8859-1", "ETag", "\"v\""),
          "<html>sent</html>".getBytes(StandardCharsets.ISO_8859_1),
          Optional.of("text/html"),
          Optional.of("iso-8859-1"),
          7,
          List.of(),
          "http://s.test/b");

  @Test
  void aRenderedPageIsItsDomAsUtf8WithTheMainDocumentsStatusAndHeaders() {
    RenderOutcome rendered =
        new RenderOutcome.Rendered(
            "http://s.test/b",
            List.of("http://s.test/a"),
            new MainResponse(
                200,
                List.of(
                    new Header("Content-Type", "text/html; charset=iso-8859-1"),
                    new Header("Content-Length", "17"),
                    new Header("Content-Encoding", "gzip"),
                    new Header("ETag", "\"v\""),
                    new Header("Vary", "Accept"),
                    new Header("Vary", "Cookie"))),
            "<html>built – é</html>",
            false,
            Settled.QUIET,
            "",
            RenderStats.NONE,
            900);

    FetchAttempt attempt = BrowserPageFetcher.attemptOf(rendered, List.of(REDIRECT, PAGE));

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.status()).isEqualTo(200);
              assertThat(new String(response.body(), StandardCharsets.UTF_8))
                  .isEqualTo("<html>built – é</html>");
              assertThat(response.headers())
                  .containsExactlyInAnyOrderEntriesOf(
                      Map.of(
                          "Content-Type", "text/html; charset=utf-8",
                          "ETag", "\"v\"",
                          "Vary", "Accept, Cookie"));
              assertThat(response.contentType()).contains("text/html");
              assertThat(response.charset()).contains("UTF-8");
              assertThat(response.rendered()).isTrue();
              assertThat(response.url()).isEqualTo("http://s.test/b");
              assertThat(response.redirectChain()).containsExactly("http://s.test/a");
              assertThat(response.durationMillis()).isEqualTo(900);
            });
  }

  @Test
  void anUnrenderedPageIsTheFetchersLastResponseWithTheChainFollowed() {
    RenderOutcome notRendered =
        new RenderOutcome.NotRendered(
            "http://s.test/b",
            List.of("http://s.test/a"),
            new MainResponse(200, List.of()),
            "not HTML: application/pdf",
            RenderStats.NONE,
            40);

    FetchAttempt attempt = BrowserPageFetcher.attemptOf(notRendered, List.of(REDIRECT, PAGE));

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.body()).isEqualTo(PAGE.body());
              assertThat(response.rendered()).isFalse();
              assertThat(response.charset()).contains("iso-8859-1");
              assertThat(response.redirectChain()).containsExactly("http://s.test/a");
              assertThat(response.url()).isEqualTo("http://s.test/b");
            });
  }

  @Test
  void aMainDocumentThatFailedIsTheFetchersFailure() {
    FetchAttempt.Failure refused =
        new FetchAttempt.Failure(FailureKind.CONNECT_FAILED, "connection refused", 3);
    RenderOutcome failed =
        new RenderOutcome.Failed(
            FailureReason.MAIN_DOCUMENT_BLOCKED, "CONNECT_FAILED: ...", RenderStats.NONE, 4);

    assertThat(BrowserPageFetcher.attemptOf(failed, List.of(refused))).isSameAs(refused);
  }

  @Test
  void aRenderOutOfTimeOrFailedIsARenderFailureOfItsOwnKind() {
    RenderOutcome timedOut =
        new RenderOutcome.TimedOut("the page's scripts did not yield", RenderStats.NONE, 10_000);
    RenderOutcome crashed =
        new RenderOutcome.Failed(
            FailureReason.TAB_CRASHED, "the page's renderer crashed", RenderStats.NONE, 50);

    assertThat(BrowserPageFetcher.attemptOf(timedOut, List.of(PAGE)))
        .isEqualTo(
            new FetchAttempt.Failure(
                FailureKind.RENDER_TIMEOUT, "the page's scripts did not yield", 10_000));
    assertThat(BrowserPageFetcher.attemptOf(crashed, List.of(PAGE)))
        .isEqualTo(
            new FetchAttempt.Failure(
                FailureKind.RENDER_FAILED, "TAB_CRASHED: the page's renderer crashed", 50));
  }
}
