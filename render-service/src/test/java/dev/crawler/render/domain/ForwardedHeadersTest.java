package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ForwardedHeadersTest {

  @ParameterizedTest
  @CsvSource({
    "Accept, true",
    "Referer, true",
    "Origin, true",
    "X-Requested-With, true",
    "Content-Type, true",
    "Cookie, false",
    "cookie, false",
    "Authorization, false",
    "User-Agent, false",
    "Accept-Encoding, false",
    "Host, false",
    "sec-ch-ua, false",
    "Sec-CH-UA-Platform, false",
    "Proxy-Authorization, false",
    "Range, false",
  })
  void forwardsWhatThePageWantsNotWhatTheLoaderDecides(String name, boolean forwarded) {
    assertThat(ForwardedHeaders.isForwarded(name)).isEqualTo(forwarded);
  }

  @Test
  void keepsTheOrderOfThoseForwarded() {
    Map<String, String> browser = new LinkedHashMap<>();
    browser.put("Referer", "http://a.test/");
    browser.put("Cookie", "s=1");
    browser.put("Accept", "*/*");

    assertThat(ForwardedHeaders.of(browser))
        .containsExactly(Map.entry("Referer", "http://a.test/"), Map.entry("Accept", "*/*"));
  }
}
