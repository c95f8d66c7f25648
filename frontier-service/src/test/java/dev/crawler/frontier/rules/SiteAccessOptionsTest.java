package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.schemas.options.Access;
import dev.crawler.schemas.options.RequestOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SiteAccessOptionsTest {

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "global: {auth: {user: a, password: hunter2}}                     | crawl.yaml:1: global.auth: password is a credential: give it as a reference, ${env:NAME} or ${file:/path}, never inline",
        "global: {auth: {scheme: ntlm, user: a, password: '${env:P}'}}    | crawl.yaml:1: global.auth: scheme 'ntlm' is not basic or digest",
        "global: {auth: {user: a}}                                        | crawl.yaml:1: global.auth: password is missing",
        "global: {headers: {Authorization: Bearer abc}}                   | crawl.yaml:1: global.headers: Authorization is a credential",
        "global: {headers: {Host: example.org}}                           | crawl.yaml:1: global.headers: Host is set by the crawler itself",
        "global: {headers: {'bad name': x}}                               | crawl.yaml:1: global.headers: 'bad name' is not a header name",
        "global: {headers: {X-Key: '${vault:k}'}}                         | crawl.yaml:1: global.headers: X-Key: a reference is ${env:NAME} or ${file:/absolute/path}",
        "global: {headers: [a, b]}                                        | crawl.yaml:1: global.headers: expected a mapping of header names to values",
        "global: {proxy: 'ftp://p:21'}                                    | crawl.yaml:1: global.proxy: 'ftp://p:21' is not a proxy URL",
        "global: {proxy: {url: 'http://p:3128', user: u, password: pw}}   | crawl.yaml:1: global.proxy: password is a credential",
        "global: {proxy: {url: 'http://p:3128', user: u}}                 | crawl.yaml:1: global.proxy: give both user and password, or neither",
        "global: {login: {url: 'http://a/login', fields: {user: a}}}      | crawl.yaml:1: global.login: say how a login is known to have succeeded",
        "global: {login: {url: /login, success-cookie: S}}                | crawl.yaml:1: global.login: url: '/login' is not an absolute http(s) URL",
        "global: {login: {url: 'http://a/l', fields: {password: x}, success-cookie: S}} | crawl.yaml:1: global.login: fields.password is a credential",
        "global: {delay-ms: {a: 1}}                                       | crawl.yaml:1: global.delay-ms: expected a single value or a list",
      })
  void refusesInlineSecretsAndBadValues(String yaml, String message) {
    assertThatThrownBy(() -> CrawlConfigLoader.parse(yaml, "crawl.yaml"))
        .isInstanceOf(CrawlConfigException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void resolvesAccessOptionsPerRuleAndCarriesThemAsReferences() {
    CrawlConfig config =
        CrawlConfigLoader.parse(
            String.join(
                "\n",
                "global:",
                "  proxy: {url: 'socks5://proxy.internal:1080', user: crawler, password: '${file:/run/secrets/proxy}'}",
                "rules:",
                "  - apply-for: {path-prefix: /intranet/}",
                "    options:",
                "      auth: {scheme: digest, user: crawler, password: '${env:INTRANET_PASSWORD}'}",
                "      headers: {Accept-Language: de, X-Api-Key: '${env:API_KEY}'}",
                "  - apply-for: {path-prefix: /portal/}",
                "    options:",
                "      proxy: direct",
                "      login:",
                "        url: https://example.org/login",
                "        fields: {user: crawler, password: '${env:PORTAL_PASSWORD}'}",
                "        success-text: Sign out"),
            "crawl.yaml");
    RuleEngine rules = new RuleEngine(config);

    Map<String, String> intranet = carried(rules, "https://example.org/intranet/a");
    Map<String, String> portal = carried(rules, "https://example.org/portal/a");

    assertThat(RequestOptions.AUTH.readFrom(intranet))
        .contains(new Access.Auth(Access.AuthScheme.DIGEST, "crawler", "${env:INTRANET_PASSWORD}"));
    assertThat(RequestOptions.HEADERS.readFrom(intranet))
        .containsExactly(
            new Access.Header("Accept-Language", "de"),
            new Access.Header("X-Api-Key", "${env:API_KEY}"));
    assertThat(RequestOptions.PROXY.readFrom(intranet))
        .contains(
            new Access.Proxy(
                Access.ProxyScheme.SOCKS5,
                "proxy.internal",
                1080,
                Optional.of("crawler"),
                Optional.of("${file:/run/secrets/proxy}")));
    assertThat(RequestOptions.PROXY.readFrom(portal)).isEmpty();
    assertThat(RequestOptions.LOGIN.readFrom(portal))
        .contains(
            new Access.Login(
                "https://example.org/login",
                "post",
                Map.of("user", "crawler", "password", "${env:PORTAL_PASSWORD}"),
                Optional.empty(),
                Optional.of("Sign out")));
    assertThat(RequestOptions.AUTH.readFrom(portal)).isEmpty();
    // unset, they cost a request nothing
    assertThat(portal).doesNotContainKeys("auth", "headers", "cookies", "credentials-over-http");
    assertThat(carried(rules, "https://example.org/elsewhere"))
        .doesNotContainKeys("auth", "headers", "login", "cookies", "credentials-over-http");
  }

  private static Map<String, String> carried(RuleEngine rules, String url) {
    Map<String, String> options = new HashMap<>();
    rules
        .optionsFor(url, 1)
        .options()
        .forEach(
            (option, setting) -> {
              if (option.isCarriedByRequests() && !option.isCarriedOnlyWhenSet(setting.value())) {
                options.put(option.name(), option.toRequestValue(setting.value()));
              }
            });
    return options;
  }
}
