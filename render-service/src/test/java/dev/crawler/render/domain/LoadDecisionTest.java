package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadDecisionTest {

  @Test
  void theBrowserGetsNeitherTheBodysFramingNorCookies() {
    LoadDecision.Fulfil response =
        new LoadDecision.Fulfil(
            200,
            List.of(
                new Header("Content-Type", "text/html"),
                new Header("Content-Encoding", "gzip"),
                new Header("Content-Length", "123"),
                new Header("Transfer-Encoding", "chunked"),
                new Header("Set-Cookie", "session=secret"),
                new Header("set-cookie", "other=secret"),
                new Header("Link", "</a>; rel=canonical")),
            new byte[0]);

    assertThat(response.headersForBrowser())
        .containsExactly(
            new Header("Content-Type", "text/html"), new Header("Link", "</a>; rel=canonical"));
    assertThat(response.header("content-type")).isEqualTo("text/html");
    assertThat(response.header("Location")).isEmpty();
  }
}
