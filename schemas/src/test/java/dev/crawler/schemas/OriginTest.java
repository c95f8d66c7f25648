package dev.crawler.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OriginTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://example.org/                         | http://example.org
          http://example.org                          | http://example.org
          HTTP://Example.ORG/Path?Q=1#F               | http://example.org
          https://example.org:443/a                   | https://example.org
          http://example.org:80/a                     | http://example.org
          https://example.org:80/a                    | https://example.org:80
          http://example.org:8080                     | http://example.org:8080
          http://example.org:/a                       | http://example.org
          http://user:pa:ss@example.org:81/           | http://example.org:81
          http://user@example.org/                    | http://example.org
          http://example.org./a                       | http://example.org
          http://example.org?q                        | http://example.org
          http://example.org#frag                     | http://example.org
          http://127.0.0.7:8080/x                     | http://127.0.0.7:8080
          http://[::1]:8080/                          | http://[::1]:8080
          http://[2001:DB8::1]/                       | http://[2001:db8::1]
          http://bücher.example/                      | http://xn--bcher-kva.example
          https://BÜCHER.example:443/                 | https://xn--bcher-kva.example
          http://例え.テスト/                            | http://xn--r8jz45g.xn--zckzah
          http://my_host.example/                     | http://my_host.example
          '  http://example.org/  '                   | http://example.org
          ftp://files.example.org:21/                 | ftp://files.example.org
          """)
  void computesTheOriginKey(String url, String key) {
    assertThat(Origin.keyOf(url)).isEqualTo(key);
  }

  @ParameterizedTest(name = "{0} keyed {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          http://example.org/a          | http://example.org          | http://example.org
          http://example.org            | http://example.org          | http://example.org
          http://example.org?q          | http://example.org          | http://example.org
          http://example.org:8080/a     | http://example.org          | http://example.org:8080
          http://example.org.evil/      | http://example.org          | http://example.org.evil
          http://example.org:8081/      | http://example.org:808      | http://example.org:8081
          http://example.org/a          | https://example.org         | http://example.org
          http://example.org/a          | site example.org            | http://example.org
          http://example.org/a          |                             | http://example.org
          """)
  void takesTheRecordKeyOnlyWhenItIsTheOrigin(String url, String key, String origin) {
    assertThat(Origin.keyOf(url, key)).isEqualTo(origin);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          example.org/page                | no scheme
          /relative/path                  | no scheme
          ://example.org/                 | no scheme
          1http://example.org/            | no scheme
          mailto:someone@example.org      | no //authority
          http:/example.org/              | no //authority
          http:///path                    | empty host
          http://:8080/                   | empty host
          http://example.org:99999/       | above 65535
          http://example.org:80a/         | is not a number
          http://example.org:-1/          | is not a number
          http://exa mple.org/            | contains ' '
          http://example..org/            | empty label
          http://[::1/                    | unterminated IPv6
          http://[::1]x/                  | after the IPv6 literal
          http://[zz::1]/                 | malformed IPv6
          """)
  void rejectsWhatHasNoOrigin(String url, String reason) {
    assertThatThrownBy(() -> Origin.of(url))
        .isInstanceOf(InvalidUrlException.class)
        .hasMessageContaining(url.strip())
        .hasMessageContaining(reason);
  }

  @ParameterizedTest
  @CsvSource({
    "http://example.org/, 80",
    "https://example.org/, 443",
    "http://example.org:8080/, 8080",
    "foo://example.org/, -1"
  })
  void knowsTheEffectivePort(String url, int port) {
    assertThat(Origin.of(url).effectivePort()).isEqualTo(port);
  }

  @org.junit.jupiter.api.Test
  void exposesItsParts() {
    Origin origin = Origin.of("HTTPS://Example.org:8443/x");
    assertThat(origin.scheme()).isEqualTo("https");
    assertThat(origin.host()).isEqualTo("example.org");
    assertThat(origin.port()).isEqualTo(8443);
    assertThat(origin).isEqualTo(new Origin("https", "example.org", 8443));
    assertThat(origin.toString()).isEqualTo("https://example.org:8443");
  }
}
