package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.options.Access;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * Sets up what a request needs to reach its site before it is sent ({@link SiteAccess}): the
 * secrets its options reference, resolved here and nowhere else (a login's fields by the origin's
 * {@link OriginLogins}); the client it goes through (the one that verifies TLS whenever credentials
 * go along); its origin's cookie jar and proxy, the target's address judged by the address guard
 * when a proxy connects to it; HTTP authentication bound to its origin ({@link
 * OriginAuthentications}); and the form login, made before the origin's first page and again when
 * the session is over. Credentials go to their own origin only, and over plain http only when the
 * site's options say {@code credentials-over-http: true}. Thread-safe.
 */
final class SiteGate {

  /** What a request needs, or why it is not sent. */
  sealed interface Prepared {}

  /**
   * @param client the client it goes through
   * @param headers the headers it adds on its own origin, secrets resolved
   */
  record Ready(HttpClient client, Map<String, String> headers) implements Prepared {}

  /** The request is not sent: the detail names a reference or a rule, never a secret. */
  record Refused(FailureKind kind, String detail) implements Prepared {}

  private final HttpClient open;
  private final HttpClient verified;
  private final OriginCookieJars jars;
  private final ProxyRoutes routes;
  private final Secrets secrets;
  private final SocketAddressResolver guard;
  private final OriginAuthentications authentications = new OriginAuthentications();
  private final OriginLogins logins;
  private final Ready straight;

  /**
   * @param requestTimeout how long each request of a login may take
   * @param clock the time login sessions are judged by
   */
  SiteGate(HttpClients clients, Secrets secrets, Duration requestTimeout, InstantSource clock) {
    this.open = clients.open();
    this.verified = clients.verified();
    this.jars = clients.jars();
    this.routes = clients.routes();
    this.secrets = secrets;
    this.guard = clients.resolver();
    this.logins = new OriginLogins(jars, secrets, requestTimeout, clock);
    this.straight = new Ready(open, Map.of());
  }

  /** Sets up the call's access; completes with the client and headers, or the refusal. */
  CompletableFuture<Prepared> prepare(Call call) {
    SiteAccess access = call.access();
    if (access.equals(SiteAccess.NONE)) {
      return CompletableFuture.completedFuture(straight);
    }
    if (access.proxy().isEmpty()) {
      return setUp(call);
    }
    // the proxy connects to the target, not the client: its address is judged here first
    return judgeTarget(call.url())
        .thenCompose(
            denied ->
                denied.isPresent() ? CompletableFuture.completedFuture(denied.get()) : setUp(call));
  }

  /**
   * Judges the addresses the URL's host resolves to here by the address guard, when a proxy will
   * connect to it: a denied address refuses the request; a name that does not resolve here is left
   * to the proxy (split DNS).
   */
  private CompletableFuture<Optional<Prepared>> judgeTarget(String url) {
    CompletableFuture<Optional<Prepared>> judged = new CompletableFuture<>();
    Origin origin;
    try {
      origin = Origin.of(url);
    } catch (RuntimeException e) {
      judged.complete(Optional.empty());
      return judged;
    }
    String host = origin.host();
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
    }
    guard.resolve(
        host,
        origin.effectivePort(),
        Map.of(),
        new Promise<>() {
          @Override
          public void succeeded(List<InetSocketAddress> addresses) {
            judged.complete(Optional.empty());
          }

          @Override
          public void failed(Throwable failure) {
            judged.complete(
                failure instanceof GuardedAddressResolver.AddressDeniedException
                    ? Optional.of(new Refused(FailureKind.ADDRESS_DENIED, failure.getMessage()))
                    : Optional.empty());
          }
        });
    return judged;
  }

  private CompletableFuture<Prepared> setUp(Call call) {
    SiteAccess access = call.access();
    String origin;
    try {
      origin = Origin.keyOf(call.url());
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(straight); // the request fails on its URL
    }
    boolean withCredentials = access.carriesCredentials();
    if (withCredentials && call.url().startsWith("http:") && !access.overPlainHttp()) {
      return refused(
          "credentials are sent over plain http only when the site's options set"
              + " credentials-over-http: true");
    }
    HttpClient client = withCredentials ? verified : open;
    Map<String, String> headers = new LinkedHashMap<>();
    try {
      for (Access.Header header : access.headers()) {
        headers.put(header.name(), secrets.resolve(header.value()));
      }
      route(origin, access.proxy());
      if (access.auth().isPresent()) {
        Access.Auth auth = access.auth().get();
        authentications.register(
            client,
            origin,
            auth.scheme(),
            secrets.resolve(auth.user()),
            secrets.resolve(auth.password()));
      }
    } catch (Secrets.UnavailableException e) {
      return refused(e.getMessage());
    }
    if (access.keepsCookies()) {
      jars.enable(origin, access.login().isPresent());
    }
    Ready ready = new Ready(client, Map.copyOf(headers));
    if (access.login().isEmpty() || !logins.isNeeded(origin, access.login().get())) {
      return CompletableFuture.completedFuture(ready);
    }
    return logins
        .login(client, origin, access.login().get(), headers)
        .thenApply(
            failure ->
                failure.isPresent()
                    ? new Refused(FailureKind.ACCESS_FAILED, failure.get())
                    : (Prepared) ready);
  }

  /** Whether an answer says the origin's session is over: a 401, a 403, or a redirect to login. */
  boolean isLoggedOut(Call call, int status, Optional<String> location) {
    return OriginLogins.isLoggedOut(call, status, location);
  }

  /** Logs in again after an answer said the session is over; completes with a failure, if any. */
  CompletableFuture<Optional<String>> loginAgain(Call call, Ready ready) {
    return logins.again(
        ready.client(),
        Origin.keyOf(call.url()),
        call.access().login().orElseThrow(),
        ready.headers());
  }

  /** Forgets what the fetcher holds for an origin: its session, cookies and proxy route. */
  void forget(String origin) {
    logins.forget(origin);
    jars.forget(origin);
    routes.forget(origin);
  }

  /** Drops every origin's cookies and sessions; returns how many jars there were. */
  int forgetAllCookies() {
    logins.forgetAll();
    return jars.forgetAll();
  }

  private void route(String origin, Optional<Access.Proxy> proxy)
      throws Secrets.UnavailableException {
    if (proxy.isEmpty()) {
      routes.route(origin, Optional.empty());
      return;
    }
    Optional<String> user = Optional.empty();
    Optional<String> password = Optional.empty();
    if (proxy.get().user().isPresent()) {
      user = Optional.of(secrets.resolve(proxy.get().user().get()));
    }
    if (proxy.get().password().isPresent()) {
      password = Optional.of(secrets.resolve(proxy.get().password().get()));
    }
    routes.route(origin, Optional.of(new ProxyRoutes.Route(proxy.get(), user, password)));
  }

  private static CompletableFuture<Prepared> refused(String detail) {
    return CompletableFuture.completedFuture(new Refused(FailureKind.ACCESS_FAILED, detail));
  }
}
