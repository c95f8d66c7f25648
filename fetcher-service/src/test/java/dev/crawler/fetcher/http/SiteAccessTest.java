package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.options.Access;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetcher reaches sites behind HTTP authentication, a login form, a required header and a
 * cookie, against a real site on loopback; secrets come from references, go only where they belong,
 * and never appear in what the fetcher records.
 */
class SiteAccessTest {

  private static final String PASSWORD = "s3cret-Pa55word";
  private static final String API_KEY = "k3y-0123456789";

  @TempDir static Path dir;

  private static AccessTestSite site;
  private static AccessTestSite other;
  private static JettyPageFetcher fetcher;

  @BeforeAll
  static void start() throws Exception {
    site = new AccessTestSite(PASSWORD, API_KEY);
    other = new AccessTestSite(PASSWORD, API_KEY);
    Path keyFile = dir.resolve("api-key");
    Files.writeString(keyFile, API_KEY + "\n");
    Map<String, String> environment = Map.of("SITE_PASSWORD", PASSWORD);
    fetcher = fetcher(new Secrets(environment::get, InstantSource.system()));
  }

  static JettyPageFetcher fetcher(Secrets secrets) {
    return new JettyPageFetcher(
        "test-bot/1.0",
        1024 * 1024,
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        16,
        false,
        AddressPolicy.of(List.of("127.0.0.1"), List.of()),
        new BodyBudget(64L * 1024 * 1024),
        true,
        secrets,
        Optional.empty());
  }

  @AfterAll
  static void stop() throws Exception {
    fetcher.close();
    site.close();
    other.close();
  }

  private static SiteAccess access(
      List<Access.Header> headers,
      boolean cookies,
      Optional<Access.Auth> auth,
      Optional<Access.Login> login,
      boolean overPlainHttp) {
    return new SiteAccess(headers, cookies, auth, login, Optional.empty(), overPlainHttp);
  }

  private static FetchAttempt fetch(String url, SiteAccess access) throws Exception {
    return fetcher.fetch(new Call(url, false, Map.of(), 0, null, access)).get(10, TimeUnit.SECONDS);
  }

  private static FetchAttempt.Response page(String url, SiteAccess access) throws Exception {
    FetchAttempt attempt = fetch(url, access);
    assertThat(attempt).as(String.valueOf(attempt)).isInstanceOf(FetchAttempt.Response.class);
    return (FetchAttempt.Response) attempt;
  }

  private static String text(FetchAttempt.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static Optional<Access.Auth> auth(Access.AuthScheme scheme) {
    return Optional.of(new Access.Auth(scheme, AccessTestSite.USER, "${env:SITE_PASSWORD}"));
  }

  @Test
  void authenticatesWithBasicAndDigestAndRecordsNoCredential() throws Exception {
    for (Access.AuthScheme scheme : Access.AuthScheme.values()) {
      String path = "/" + scheme.name().toLowerCase(java.util.Locale.ROOT) + "/page";
      FetchAttempt.Response response =
          page(site.base() + path, access(List.of(), false, auth(scheme), Optional.empty(), true));

      assertThat(response.status()).as(scheme.name() + " " + text(response)).isEqualTo(200);
      assertThat(text(response)).isEqualTo("secret page " + path);
      for (Exchange exchange : response.exchanges()) {
        for (Exchange.Header header : exchange.requestHeaders()) {
          assertThat(header.value()).doesNotContain(PASSWORD);
          if (header.name().equalsIgnoreCase("authorization")) {
            assertThat(header.value()).isEqualTo(Redaction.REDACTED);
          }
        }
      }
    }
  }

  @Test
  void withoutCredentialsTheAreaIsClosed() throws Exception {
    FetchAttempt.Response response = page(site.base() + "/basic/page", SiteAccess.NONE);

    assertThat(response.status()).isEqualTo(401);
  }

  @Test
  void sendsNoCredentialOverPlainHttpUnlessTheRuleSaysSo() throws Exception {
    int before = site.seen().size();

    FetchAttempt attempt =
        fetch(
            site.base() + "/basic/plain",
            access(List.of(), false, auth(Access.AuthScheme.BASIC), Optional.empty(), false));

    assertThat(attempt).isInstanceOf(FetchAttempt.Failure.class);
    FetchAttempt.Failure failure = (FetchAttempt.Failure) attempt;
    assertThat(failure.kind()).isEqualTo(FailureKind.ACCESS_FAILED);
    assertThat(failure.detail()).contains("credentials-over-http");
    assertThat(site.seen()).hasSize(before); // nothing was sent
  }

  @Test
  void aSecretThatCannotBeResolvedFailsNamingItsReferenceOnly() throws Exception {
    FetchAttempt attempt =
        fetch(
            site.base() + "/basic/missing",
            access(
                List.of(),
                false,
                Optional.of(
                    new Access.Auth(Access.AuthScheme.BASIC, "crawler", "${env:NOT_SET_HERE}")),
                Optional.empty(),
                true));

    FetchAttempt.Failure failure = (FetchAttempt.Failure) attempt;
    assertThat(failure.kind()).isEqualTo(FailureKind.ACCESS_FAILED);
    assertThat(failure.detail())
        .isEqualTo("${env:NOT_SET_HERE}: the environment variable is not set");
  }

  @Test
  void sendsAHeaderFromASecretFileToItsOriginOnly() throws Exception {
    List<Access.Header> headers =
        List.of(
            new Access.Header("X-Api-Key", "${file:" + dir.resolve("api-key") + "}"),
            new Access.Header("Accept-Language", "de"));

    FetchAttempt.Response response =
        page(
            site.base() + "/api/items",
            access(headers, false, Optional.empty(), Optional.empty(), true));

    assertThat(response.status()).isEqualTo(200);
    AccessTestSite.Seen seen = site.seen().get(site.seen().size() - 1);
    assertThat(seen.headers())
        .containsEntry("x-api-key", API_KEY)
        .containsEntry("accept-language", "de");
    Exchange exchange = response.exchanges().get(0);
    assertThat(exchange.requestHeaders())
        .contains(new Exchange.Header("X-Api-Key", Redaction.REDACTED))
        .contains(new Exchange.Header("Accept-Language", "de"));
    assertThat(page(site.base() + "/api/items", SiteAccess.NONE).status()).isEqualTo(403);
  }

  @Test
  void keepsACookieJarPerOriginPortsIncluded() throws Exception {
    SiteAccess cookies = access(List.of(), true, Optional.empty(), Optional.empty(), false);
    page(site.base() + "/cookie/set", cookies);
    page(other.base() + "/cookie/set", cookies);

    FetchAttempt.Response own = page(site.base() + "/cookie/show", cookies);
    FetchAttempt.Response others = page(other.base() + "/cookie/show", cookies);
    FetchAttempt.Response without;
    try (AccessTestSite third = new AccessTestSite(PASSWORD, API_KEY)) {
      page(third.base() + "/cookie/set", SiteAccess.NONE);
      without = page(third.base() + "/cookie/show", SiteAccess.NONE);
    }

    int sitePort = Integer.parseInt(site.base().substring(site.base().lastIndexOf(':') + 1));
    int otherPort = Integer.parseInt(other.base().substring(other.base().lastIndexOf(':') + 1));
    assertThat(text(own)).isEqualTo("TRACK=t-" + sitePort);
    assertThat(text(others)).isEqualTo("TRACK=t-" + otherPort);
    assertThat(text(without)).isEqualTo("none");
  }

  @Test
  void logsInBeforeTheFirstPageAndAgainWhenTheSessionIsOver() throws Exception {
    try (AccessTestSite members = new AccessTestSite(PASSWORD, API_KEY)) {
      SiteAccess login =
          access(
              List.of(),
              false,
              Optional.empty(),
              Optional.of(
                  new Access.Login(
                      members.base() + "/login",
                      "post",
                      Map.of("user", AccessTestSite.USER, "password", "${env:SITE_PASSWORD}"),
                      Optional.of("SESSION"),
                      Optional.empty())),
              true);

      FetchAttempt.Response first = page(members.base() + "/members/1", login);
      FetchAttempt.Response second = page(members.base() + "/members/2", login);

      assertThat(first.status()).isEqualTo(200);
      assertThat(text(second)).isEqualTo("members page /members/2");
      assertThat(members.logins()).isEqualTo(1);

      // the session cookie expires in the jar: a login before the next page
      Thread.sleep(AccessTestSite.SESSION_SECONDS * 1000L + 300);
      assertThat(page(members.base() + "/members/3", login).status()).isEqualTo(200);
      assertThat(members.logins()).isEqualTo(2);

      // the site forgets the session: its redirect to the login page means a login, then the page
      members.endSessions();
      FetchAttempt.Response again = page(members.base() + "/members/4", login);
      assertThat(again.status()).isEqualTo(200);
      assertThat(members.logins()).isEqualTo(3);

      // no cookie value leaves the fetcher
      for (AccessTestSite.Seen seen : members.seen()) {
        assertThat(seen.headers().get("authorization")).isNull();
      }
      for (Exchange exchange : again.exchanges()) {
        exchange.responseHeaders().stream()
            .filter(header -> header.name().equalsIgnoreCase("set-cookie"))
            .forEach(header -> assertThat(header.value()).startsWith("SESSION=[redacted]"));
        exchange.requestHeaders().stream()
            .filter(header -> header.name().equalsIgnoreCase("cookie"))
            .forEach(header -> assertThat(header.value()).isEqualTo(Redaction.REDACTED));
      }

      // after the fetcher forgets the origin (its partition moved), it logs in again
      fetcher.forget(members.base());
      assertThat(page(members.base() + "/members/5", login).status()).isEqualTo(200);
      assertThat(members.logins()).isEqualTo(4);
    }
  }

  @Test
  void aRefusedLoginFailsTheRequestWithoutFetchingThePage() throws Exception {
    try (AccessTestSite members = new AccessTestSite(PASSWORD, API_KEY)) {
      SiteAccess login =
          access(
              List.of(),
              false,
              Optional.empty(),
              Optional.of(
                  new Access.Login(
                      members.base() + "/login",
                      "post",
                      Map.of("user", AccessTestSite.USER, "password", "${env:SITE_PASSWORD}X"),
                      Optional.of("SESSION"),
                      Optional.empty())),
              true);

      FetchAttempt.Failure failure =
          (FetchAttempt.Failure) fetch(members.base() + "/members/1", login);

      assertThat(failure.kind()).isEqualTo(FailureKind.ACCESS_FAILED);
      assertThat(failure.detail()).isEqualTo("the login answered 403 without the cookie SESSION");
      assertThat(members.seen()).extracting(AccessTestSite.Seen::path).containsExactly("/login");
    }
  }
}
