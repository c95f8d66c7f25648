package dev.crawler.common.url;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SiteTest {

  @ParameterizedTest
  @CsvSource({
    "https://www.example.org/a/b?c#d, example.org",
    "https://www.example.org:8443, example.org",
    "http://Docs.Example.CO.UK/x, example.co.uk",
    "http://user:pw@shop.example.com:81/, example.com",
    "http://127.0.0.1:8080/page, 127.0.0.1",
    "http://[::1]:8080/page, [::1]",
    "http://localhost/, localhost",
    "www.example.org, example.org",
    "https://a.b.github.io/x, b.github.io",
  })
  void isTheRegisteredDomainOfTheHost(String url, String site) {
    assertThat(Site.of(url)).isEqualTo(site);
  }

  @Test
  void isTheSameForAUrlAndItsOrigin() {
    assertThat(Site.of("https://news.example.org:444/2026/story.html"))
        .isEqualTo(Site.of("https://news.example.org:444"));
  }
}
