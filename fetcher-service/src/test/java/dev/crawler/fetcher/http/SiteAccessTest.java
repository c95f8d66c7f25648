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
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

  /**
   * The fetchers' clock, moved by the tests: it starts at the system's time, as the cookies' {@code
   * Expires} must not lie behind it for Jetty's store to keep them.
   */
  private static final ManualClock clock = new ManualClock(Instant.now());

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
    fetcher = fetcher(new Secrets(environment::get, clock));
  }

  static JettyPageFetcher fetcher(Secrets secrets) {
    return fetcher(
        secrets, AddressPolicy.of(List.of("127.0.0.1"), List.of()), Optional.empty(), true);
  }

  static JettyPageFetcher fetcher(
      Secrets secrets,
      AddressPolicy addresses,
      Optional<TrustStore> trustStore,
      boolean recordsExchanges) {
    return JettyPageFetcher.builder("test-bot/1.0")
        .maxBodyBytes(1024 * 1024)
        .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(5))
        .maxConnections(16)
        .addresses(addresses)
        .bodies(new BodyBudget(64L * 1024 * 1024))
        .recordsExchanges(recordsExchanges)
        .secrets(secrets)
        .trustStore(trustStore)
        .clock(clock)
        .build();
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
    return fetch(fetcher, url, access);
  }

  private static FetchAttempt fetch(JettyPageFetcher through, String url, SiteAccess access)
      throws Exception {
    return through.fetch(new Call(url, false, Map.of(), 0, null, access)).get(10, TimeUnit.SECONDS);
  }

  private static FetchAttempt.Response page(String url, SiteAccess access) throws Exception {
    FetchAttempt attempt = fetch(url, access);
    assertThat(attempt).as(String.valueOf(attempt)).isInstanceOf(FetchAttempt.Response.class);
    return (FetchAttempt.Response) attempt;
  }

  private static String text(FetchAttempt.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  /** A form login to the site's /login with a session cookie, over plain http. */
  private static SiteAccess login(AccessTestSite members, String password) {
    return access(
        List.of(),
        false,
        Optional.empty(),
        Optional.of(
            new Access.Login(
                members.base() + "/login",
                "post",
                Map.of("user", AccessTestSite.USER, "password", password),
                Optional.of("SESSION"),
                Optional.empty())),
        true);
  }

  private static Optional<Access.Auth> auth(Access.AuthScheme scheme) {
    return Optional.of(new Access.Auth(scheme, AccessTestSite.USER, "${env:SITE_PASSWORD}"));
  }

  @Test
  void authenticatesWithBasicAndDigestAndRecordsNoCredential() throws Exception {
    for (Access.AuthScheme scheme : Access.AuthScheme.values()) {
      String path = "/" + scheme.name().toLowerCase(Locale.ROOT) + "/page";
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

  /**
   * Two Digest realms on one origin, one offering MD5 and one SHA-256, visited in turns: each
   * area's credentials name its own realm and algorithm, and each realm challenges once, its first
   * request; after that the credentials go along before any challenge, in their realm only.
   */
  @Test
  void keepsDigestCredentialsInTheirProtectionSpace() throws Exception {
    try (AccessTestSite realms = new AccessTestSite(PASSWORD, API_KEY)) {
      SiteAccess digest =
          access(List.of(), false, auth(Access.AuthScheme.DIGEST), Optional.empty(), true);
      Map<String, String> algorithms = Map.of("/digest/md5/", "MD5", "/digest/sha256/", "SHA-256");
      Map<String, String> areaRealms =
          Map.of(
              "/digest/md5/", AccessTestSite.MD5_REALM,
              "/digest/sha256/", AccessTestSite.SHA256_REALM);

      for (int round = 1; round <= 3; round++) {
        for (String area : List.of("/digest/md5/", "/digest/sha256/")) {
          String path = area + "page-" + round;
          FetchAttempt.Response response = page(realms.base() + path, digest);
          assertThat(response.status()).as(path).isEqualTo(200);
          assertThat(text(response)).isEqualTo("secret page " + path);
        }
      }

      assertThat(realms.challenges())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(AccessTestSite.MD5_REALM, 1, AccessTestSite.SHA256_REALM, 1));
      for (AccessTestSite.Seen seen : realms.seen()) {
        String authorization = seen.headers().get("authorization");
        if (authorization == null) {
          continue;
        }
        String area = seen.path().startsWith("/digest/md5/") ? "/digest/md5/" : "/digest/sha256/";
        assertThat(authorization)
            .as(seen.path())
            .contains("realm=\"" + areaRealms.get(area) + "\"")
            .containsPattern("algorithm=\"?" + algorithms.get(area) + "\"?(,|$)");
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
      SiteAccess login = login(members, "${env:SITE_PASSWORD}");

      FetchAttempt.Response first = page(members.base() + "/members/1", login);
      FetchAttempt.Response second = page(members.base() + "/members/2", login);

      assertThat(first.status()).isEqualTo(200);
      assertThat(text(second)).isEqualTo("members page /members/2");
      assertThat(members.logins()).isEqualTo(1);

      // the session cookie expires in the jar: a login before the next page
      clock.advance(Duration.ofSeconds(AccessTestSite.SESSION_SECONDS + 1));
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
  void sendsCredentialsOverHttpsOnlyWhenTheCertificateVerifies() throws Exception {
    Path keyStore = keyStore();
    Path trustStore = dir.resolve("trust.p12");
    Path certificate = dir.resolve("site.crt");
    keytool(
        "-exportcert",
        "-alias",
        "site",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        "secret",
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "site",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        "trusted");
    SiteAccess basic =
        access(List.of(), false, auth(Access.AuthScheme.BASIC), Optional.empty(), false);
    Secrets secrets = new Secrets(Map.of("SITE_PASSWORD", PASSWORD)::get, clock);

    try (AccessTestSite tls = new AccessTestSite(PASSWORD, API_KEY, keyStore)) {
      // a certificate no trust store vouches for: the handshake fails, no request is made
      FetchAttempt untrusted = fetch(tls.base() + "/basic/page", basic);
      assertThat(untrusted).isInstanceOf(FetchAttempt.Failure.class);
      assertThat(tls.seen()).isEmpty();
      // the same site without credentials is fetched, its certificate unverified as configured
      assertThat(page(tls.base() + "/cookie/show", SiteAccess.NONE).status()).isEqualTo(200);

      try (JettyPageFetcher trusting =
          fetcher(
              secrets,
              AddressPolicy.of(List.of("127.0.0.1"), List.of()),
              Optional.of(new TrustStore(trustStore, "trusted")),
              false)) {
        FetchAttempt.Response response =
            (FetchAttempt.Response) fetch(trusting, tls.base() + "/basic/page", basic);
        assertThat(response.status()).isEqualTo(200);
        assertThat(text(response)).isEqualTo("secret page /basic/page");
      }
    }
  }

  private static void keytool(String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }

  @Test
  void goesThroughAnHttpProxyWithItsCredentialsForHttpAndHttps() throws Exception {
    Secrets secrets =
        new Secrets(Map.of("SITE_PASSWORD", PASSWORD, "PROXY_PASSWORD", "pr0xy-pw")::get, clock);
    Optional<Access.Proxy> proxy;
    try (RecordingHttpProxy corporate = new RecordingHttpProxy("proxy-user", "pr0xy-pw");
        JettyPageFetcher proxied = fetcher(secrets)) {
      proxy =
          Optional.of(
              Access.proxy(
                  "http://127.0.0.1:" + corporate.port(),
                  Optional.of("proxy-user"),
                  Optional.of("${env:PROXY_PASSWORD}")));
      SiteAccess viaProxy =
          new SiteAccess(List.of(), false, Optional.empty(), Optional.empty(), proxy, false);

      FetchAttempt.Response response =
          (FetchAttempt.Response) fetch(proxied, site.base() + "/cookie/show", viaProxy);

      assertThat(response.status()).isEqualTo(200);
      assertThat(corporate.requests())
          .anySatisfy(
              seen -> {
                assertThat(seen.method()).isEqualTo("GET");
                assertThat(seen.target()).isEqualTo(site.base() + "/cookie/show");
                assertThat(seen.authorized()).isTrue();
              });
      for (Exchange exchange : response.exchanges()) {
        assertThat(exchange.requestHeaders())
            .noneMatch(header -> header.value().contains("pr0xy-pw"));
      }

      // https goes through a CONNECT tunnel: the proxy sees the target, never the request
      try (AccessTestSite tls = new AccessTestSite(PASSWORD, API_KEY, keyStore())) {
        FetchAttempt.Response secure =
            (FetchAttempt.Response)
                proxied
                    .fetch(
                        new Call(tls.base() + "/cookie/show", false, Map.of(), 0, null, viaProxy))
                    .get(10, TimeUnit.SECONDS);
        assertThat(secure.status()).isEqualTo(200);
        assertThat(corporate.requests())
            .anySatisfy(
                seen -> {
                  assertThat(seen.method()).isEqualTo("CONNECT");
                  assertThat(seen.target()).isEqualTo(tls.base().substring("https://".length()));
                  assertThat(seen.authorized()).isTrue();
                });
      }
    }
  }

  @Test
  void goesThroughASocks5ProxyWithUserAndPassword() throws Exception {
    Secrets secrets = new Secrets(Map.of("SOCKS_PASSWORD", "s0cks-pw")::get, clock);
    try (RecordingSocks5Proxy socks = new RecordingSocks5Proxy("socks-user", "s0cks-pw");
        JettyPageFetcher proxied = fetcher(secrets)) {
      SiteAccess viaSocks =
          new SiteAccess(
              List.of(),
              false,
              Optional.empty(),
              Optional.empty(),
              Optional.of(
                  Access.proxy(
                      "socks5://127.0.0.1:" + socks.port(),
                      Optional.of("socks-user"),
                      Optional.of("${env:SOCKS_PASSWORD}"))),
              false);

      FetchAttempt.Response response =
          (FetchAttempt.Response) fetch(proxied, site.base() + "/cookie/show", viaSocks);

      assertThat(response.status()).isEqualTo(200);
      int port = Integer.parseInt(site.base().substring(site.base().lastIndexOf(':') + 1));
      assertThat(socks.requests())
          .containsExactly(
              new RecordingSocks5Proxy.Recorded("127.0.0.1", port, "socks-user", true));
    }
  }

  @Test
  void theAddressGuardJudgesTheTargetOfAProxiedRequest() throws Exception {
    try (RecordingHttpProxy corporate = new RecordingHttpProxy();
        JettyPageFetcher guarded =
            fetcher(
                Secrets.ofEnvironment(),
                AddressPolicy.of(List.of(), List.of()),
                Optional.empty(),
                false)) {
      SiteAccess viaProxy =
          new SiteAccess(
              List.of(),
              false,
              Optional.empty(),
              Optional.empty(),
              Optional.of(
                  Access.proxy(
                      "http://127.0.0.1:" + corporate.port(), Optional.empty(), Optional.empty())),
              false);

      FetchAttempt attempt = fetch(guarded, site.base() + "/cookie/show", viaProxy);

      // the proxy on loopback is the operator's choice; the loopback target is not
      assertThat(((FetchAttempt.Failure) attempt).kind()).isEqualTo(FailureKind.ADDRESS_DENIED);
      assertThat(corporate.requests()).isEmpty();
    }
  }

  private static Path keyStore;

  /** A key store whose certificate names 127.0.0.1, made once. */
  private static synchronized Path keyStore() throws Exception {
    if (keyStore == null) {
      Path store = dir.resolve("proxied-site.p12");
      keytool(
          "-genkeypair",
          "-alias",
          "site",
          "-keyalg",
          "RSA",
          "-keysize",
          "2048",
          "-validity",
          "2",
          "-storetype",
          "PKCS12",
          "-keystore",
          store.toString(),
          "-storepass",
          "secret",
          "-keypass",
          "secret",
          "-dname",
          "CN=127.0.0.1",
          "-ext",
          "SAN=ip:127.0.0.1");
      keyStore = store;
    }
    return keyStore;
  }

  /** A clock that moves only when told. */
  private static final class ManualClock implements InstantSource {
    private final AtomicLong millis;

    ManualClock(Instant start) {
      millis = new AtomicLong(start.toEpochMilli());
    }

    void advance(Duration by) {
      millis.addAndGet(by.toMillis());
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  @Test
  void aRefusedLoginFailsTheRequestWithoutFetchingThePage() throws Exception {
    try (AccessTestSite members = new AccessTestSite(PASSWORD, API_KEY)) {
      SiteAccess login = login(members, "${env:SITE_PASSWORD}X");

      FetchAttempt.Failure failure =
          (FetchAttempt.Failure) fetch(members.base() + "/members/1", login);

      assertThat(failure.kind()).isEqualTo(FailureKind.ACCESS_FAILED);
      assertThat(failure.detail()).isEqualTo("the login answered 403 without the cookie SESSION");
      assertThat(members.seen()).extracting(AccessTestSite.Seen::path).containsExactly("/login");
    }
  }
}
