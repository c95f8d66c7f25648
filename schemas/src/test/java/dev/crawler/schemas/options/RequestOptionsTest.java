package dev.crawler.schemas.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.schemas.options.RequestOptions.CanonicalScope;
import dev.crawler.schemas.options.RequestOptions.Head;
import dev.crawler.schemas.options.RequestOptions.Redirects;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestOptionsTest {

  @Test
  void readsEveryOptionsDefaultFromAnEmptyMap() {
    for (RequestOption<?> option : RequestOptions.all().values()) {
      assertThat((Object) option.readFrom(Map.of()))
          .as(option.name())
          .isEqualTo(option.defaultValue());
    }
    assertThat(RequestOptions.all()).hasSize(33);
  }

  @Test
  void readsBackWhatItWrote() {
    Map<String, String> options = new HashMap<>();
    put(options, RequestOptions.DELAY_MS, 250L);
    put(options, RequestOptions.MAX_CONNECTIONS_PER_ORIGIN, 4);
    put(options, RequestOptions.OBEY_ROBOTS_TXT, false);
    put(options, RequestOptions.REDIRECTS, new Redirects(true, 3));
    put(options, RequestOptions.HEAD, Head.OPTIONAL);
    put(options, RequestOptions.CONTENT_TYPES, List.of("text/html", "text/*"));
    put(options, RequestOptions.CANONICAL_SCOPE, CanonicalScope.ANY);
    put(options, RequestOptions.METADATA_CHECKSUM, List.of("etag", "last-modified"));
    put(options, RequestOptions.PAGINATION, "a.next");

    assertThat(options)
        .containsEntry("delay-ms", "250")
        .containsEntry("redirects", "follow 3")
        .containsEntry("head", "optional")
        .containsEntry("content-types", "text/html,text/*")
        .containsEntry("canonical-scope", "any");
    assertThat(RequestOptions.DELAY_MS.readFrom(options)).isEqualTo(250L);
    assertThat(RequestOptions.MAX_CONNECTIONS_PER_ORIGIN.readFrom(options)).isEqualTo(4);
    assertThat(RequestOptions.OBEY_ROBOTS_TXT.readFrom(options)).isFalse();
    assertThat(RequestOptions.REDIRECTS.readFrom(options)).isEqualTo(new Redirects(true, 3));
    assertThat(RequestOptions.HEAD.readFrom(options)).isEqualTo(Head.OPTIONAL);
    assertThat(RequestOptions.CONTENT_TYPES.readFrom(options))
        .containsExactly("text/html", "text/*");
    assertThat(RequestOptions.CANONICAL_SCOPE.readFrom(options)).isEqualTo(CanonicalScope.ANY);
    assertThat(RequestOptions.METADATA_CHECKSUM.readFrom(options))
        .containsExactly("etag", "last-modified");
    assertThat(RequestOptions.PAGINATION.readFrom(options)).isEqualTo("a.next");
  }

  @Test
  void readsBackTheAccessOptionsWithTheirReferences() {
    Map<String, String> options = new HashMap<>();
    List<Access.Header> headers =
        List.of(
            new Access.Header("Accept-Language", "de, en;q=0.5"),
            new Access.Header("X-Api-Key", "${env:API_KEY}"));
    Optional<Access.Auth> auth =
        Optional.of(new Access.Auth(Access.AuthScheme.DIGEST, "crawler", "${file:/run/pw}"));
    Optional<Access.Login> login =
        Optional.of(
            new Access.Login(
                "https://example.org/login?next=/",
                "post",
                Map.of("user", "crawler", "password", "${env:PW}"),
                Optional.of("SESSION"),
                Optional.of("Welcome = back")));
    Optional<Access.Proxy> proxy =
        Optional.of(
            Access.proxy(
                "socks5://[fd00::1]:1080", Optional.of("u"), Optional.of("${env:PROXY_PW}")));
    put(options, RequestOptions.HEADERS, headers);
    put(options, RequestOptions.AUTH, auth);
    put(options, RequestOptions.LOGIN, login);
    put(options, RequestOptions.PROXY, proxy);

    assertThat(RequestOptions.HEADERS.readFrom(options)).isEqualTo(headers);
    assertThat(RequestOptions.AUTH.readFrom(options)).isEqualTo(auth);
    assertThat(RequestOptions.LOGIN.readFrom(options)).isEqualTo(login);
    assertThat(RequestOptions.PROXY.readFrom(options)).isEqualTo(proxy);
    assertThat(proxy.get().host()).isEqualTo("fd00::1");
    assertThat(headers.get(1).isCredential()).isTrue();
    assertThat(headers.get(0).isCredential()).isFalse();
    assertThat(String.join("\n", options.values())).doesNotContain("hunter");
  }

  @ParameterizedTest(name = "{0}={1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "delay-ms                   | -5            | 1000",
        "delay-ms                   | soon          | 1000",
        "delay-ms                   | ' 0 '         | 0",
        "max-connections-per-origin | 0             | 1",
        "max-connections-per-origin | 99            | 16",
        "patience                   | 0             | 5",
        "obey-robots-txt            | FALSE         | false",
        "obey-robots-txt            | no            | true",
        "redirects                  | follow        | follow 5",
        "redirects                  | follow 50     | follow 10",
        "redirects                  | follow many   | record",
        "redirects                  | anything      | record",
        "head                       | Required      | REQUIRED",
        "head                       | sometimes     | DISABLED",
        "canonical-scope            | somewhere     | DOMAIN",
        "max-content-length         | ' 2048 '      | 2048",
        "metadata-checksum          | 'ETag | Date' | [etag, date]",
      })
  void readsAnUnreadableValueAsTheDefault(String name, String value, String read) {
    RequestOption<?> option = RequestOptions.named(name).orElseThrow();

    assertThat(String.valueOf((Object) option.readFrom(Map.of(name, value)))).isEqualTo(read);
  }

  private static <T> void put(Map<String, String> options, RequestOption<T> option, T value) {
    options.put(option.name(), option.write(value));
  }
}
