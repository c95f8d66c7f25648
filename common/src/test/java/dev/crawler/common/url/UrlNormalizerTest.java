package dev.crawler.common.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlNormalizerTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        "HTTP://Example.COM:80/a/./b/../c.html#frag | http://example.com/a/c.html",
        "http://a.example                           | http://a.example/",
        "https://a.example:443/x                    | https://a.example/x",
        "http://a.example:8080/x?b=2&a=1            | http://a.example:8080/x?a=1&b=2",
        "http://a.example/%7euser/                  | http://a.example/~user/",
        "ftp://a.example/                           | NONE",
        "/relative/path                             | NONE",
        "http://a.example/x??                       | http://a.example/x??",
        // crawler-commons reads past the end of this query: a bad URL is empty, not an exception
        "https://a.example:443/%41:??               | NONE",
      })
  void normalizesOrSaysTheUrlIsNotCrawlable(String url, String expected) {
    assertThat(UrlNormalizer.tryNormalize(url)).isEqualTo(Optional.ofNullable(expected));
  }
}
