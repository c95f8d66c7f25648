package dev.crawler.schemas.options;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AccessTest {

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "Authorization, true",
    "authorization, true",
    "Proxy-Authorization, true",
    "COOKIE, true",
    "Set-Cookie, true",
    "set-cookie2, true",
    "X-Api-Key, false",
    "Accept-Language, false",
    "WWW-Authenticate, false",
    "Cookies, false",
  })
  void aHeaderIsACredentialByItsNameAlone(String name, boolean isCredential) {
    assertThat(Access.isCredentialHeader(name)).isEqualTo(isCredential);
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}")
  @CsvSource({
    "Authorization, Bearer ${env:TOKEN}, true",
    "Cookie, ${file:/run/cookie}, true",
    "X-Api-Key, ${env:API_KEY}, true",
    "X-Api-Key, k3y, false",
    "Accept-Language, de, false",
  })
  void aSitesHeaderIsACredentialByItsNameOrItsReference(
      String name, String value, boolean isCredential) {
    assertThat(new Access.Header(name, value).isCredential()).isEqualTo(isCredential);
  }
}
