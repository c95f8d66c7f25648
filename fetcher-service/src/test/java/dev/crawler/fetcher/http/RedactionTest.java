package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.options.Access;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactionTest {

  private static final SiteAccess SITE =
      new SiteAccess(
          List.of(
              new Access.Header("X-Api-Key", "${env:API_KEY}"),
              new Access.Header("Accept-Language", "de")),
          false,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          false);

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource({
    "Authorization, Basic Y3Jhd2xlcjpzM2NyZXQ=, [redacted]",
    "proxy-authorization, Basic cHJveHk6cHc=, [redacted]",
    "Cookie, SESSION=abc, [redacted]",
    "X-Api-Key, k3y-0123456789, [redacted]",
    "x-api-key, k3y-0123456789, [redacted]",
    "Accept-Language, de, de",
    "User-Agent, test-bot/1.0, test-bot/1.0",
  })
  void recordsASentHeaderWithoutItsCredential(String name, String value, String recorded) {
    assertThat(Redaction.sent(name, value, SITE)).isEqualTo(recorded);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Set-Cookie | SESSION=abc; Path=/; Max-Age=2 | SESSION=[redacted]; Path=/; Max-Age=2",
        "set-cookie | TRACK=t-1 | TRACK=[redacted]",
        "Set-Cookie2 | A=b; Version=1 | A=[redacted]; Version=1",
        "Set-Cookie | garbage | garbage",
        "Cookie | SESSION=abc | [redacted]",
        "Content-Type | text/html; charset=UTF-8 | text/html; charset=UTF-8",
      })
  void recordsAReceivedHeaderWithoutItsCredential(String name, String value, String recorded) {
    assertThat(Redaction.received(name, value)).isEqualTo(recorded);
  }
}
