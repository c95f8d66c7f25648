package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RefreshTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0;url=api/index.html | 0 | api/index.html",
        "0; URL=api/index.html | 0 | api/index.html",
        "0;URL='/a b.html' | 0 | /a b.html",
        "5 ; url = \"next.html\" junk\" | 5 | next.html",
        "3,http://a.example/x | 3 | http://a.example/x",
        "0.5; url=/half | 0 | /half",
        "  10;/relative | 10 | /relative",
        "30 | 30 | ''",
        "1; | 1 | ''",
      })
  void readsTheDelayAndTheUrl(String content, long delay, String url) {
    assertThat(Refresh.parse(content))
        .contains(new Refresh(delay, url.isEmpty() ? Optional.empty() : Optional.of(url)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"url=/x", "soon", "''"})
  void aContentWithoutADelayIsNoRefresh(String content) {
    assertThat(Refresh.parse(content)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"0, true", "10, true", "11, false", "3600, false"})
  void aShortDelayIsARedirect(long delay, boolean isRedirect) {
    assertThat(new Refresh(delay, Optional.of("/x")).isRedirect()).isEqualTo(isRedirect);
  }
}
