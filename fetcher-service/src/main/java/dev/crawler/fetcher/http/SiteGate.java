package dev.crawler.fetcher.http;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.options.Access;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.DigestAuthentication;
import org.eclipse.jetty.client.FormRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up what a request needs to reach its site before it is sent ({@link SiteAccess}): the
 * secrets its options reference, resolved here and nowhere else; the client it goes through (the
 * one that verifies TLS whenever credentials go along); its origin's cookie jar and proxy; HTTP
 * authentication bound to its origin; and the form login, made before the origin's first page and
 * again when the session is over. Credentials go to their own origin only, and over plain http only
 * when the site's options say {@code credentials-over-http: true}. Thread-safe.
 */
final class SiteGate {

  private static final Logger LOG = LoggerFactory.getLogger(SiteGate.class);

  /** How long after a failed login the origin's requests fail without another try. */
  static final Duration LOGIN_RETRY_AFTER = Duration.ofSeconds(60);

  /** The most of a login's answer read for its success text. */
  static final int MAX_LOGIN_ANSWER_BYTES = 1024 * 1024;

  /** Redirects a login's answer is followed through, within its origin. */
  static final int MAX_LOGIN_REDIRECTS = 5;

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
  private final Duration requestTimeout;
  private final SocketAddressResolver guard;
  private final Ready straight;
  private final Map<String, Authentication> authentications = new ConcurrentHashMap<>();
  private final Map<String, String> authenticationKeys = new ConcurrentHashMap<>();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** An origin's login: the one under way, or when the last ended and how. */
  private static final class Session {
    CompletableFuture<Optional<String>> pending;
    long loggedInAt;
    long failedAt;
    String failure = "";
  }

  SiteGate(
      HttpClient open,
      HttpClient verified,
      OriginCookieJars jars,
      ProxyRoutes routes,
      Secrets secrets,
      Duration requestTimeout,
      SocketAddressResolver guard) {
    this.open = open;
    this.verified = verified;
    this.jars = jars;
    this.routes = routes;
    this.secrets = secrets;
    this.requestTimeout = requestTimeout;
    this.guard = guard;
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
        authenticate(client, origin, access.auth().get());
      }
    } catch (Secrets.UnavailableException e) {
      return refused(e.getMessage());
    }
    if (access.keepsCookies()) {
      jars.enable(origin, access.login().isPresent());
    }
    Ready ready = new Ready(client, Map.copyOf(headers));
    if (access.login().isEmpty() || !needsLogin(origin, access.login().get())) {
      return CompletableFuture.completedFuture(ready);
    }
    return login(client, origin, access.login().get(), headers)
        .thenApply(
            failure ->
                failure.isPresent()
                    ? new Refused(FailureKind.ACCESS_FAILED, failure.get())
                    : (Prepared) ready);
  }

  /**
   * Whether an answer says the origin's session is over: a 401 or 403, or a redirect to the login
   * page.
   */
  boolean isLoggedOut(Call call, int status, Optional<String> location) {
    Optional<Access.Login> login = call.access().login();
    if (login.isEmpty()) {
      return false;
    }
    if (status == 401 || status == 403) {
      return true;
    }
    return status >= 300
        && status < 400
        && location
            .flatMap(target -> UrlNormalizer.resolve(call.url(), target))
            .map(target -> withoutQuery(target).equals(withoutQuery(login.get().url())))
            .orElse(false);
  }

  /** Logs in again after an answer said the session is over; completes with a failure, if any. */
  CompletableFuture<Optional<String>> loginAgain(Call call, Ready ready) {
    String origin = Origin.keyOf(call.url());
    Session session = sessions.computeIfAbsent(origin, key -> new Session());
    synchronized (session) {
      if (session.pending == null) {
        session.loggedInAt = 0; // the site ended it
      }
    }
    LOG.info("{}: the session is over, logging in again", origin);
    return login(ready.client(), origin, call.access().login().orElseThrow(), ready.headers());
  }

  /** Forgets what the fetcher holds for an origin: its session, cookies and proxy route. */
  void forget(String origin) {
    sessions.remove(origin);
    jars.forget(origin);
    routes.forget(origin);
  }

  /** Drops every origin's cookies and sessions; returns how many jars there were. */
  int forgetAllCookies() {
    sessions.clear();
    return jars.forgetAll();
  }

  private boolean needsLogin(String origin, Access.Login login) {
    Session session = sessions.get(origin);
    if (session == null) {
      return true;
    }
    synchronized (session) {
      if (session.pending != null || session.loggedInAt == 0) {
        return true;
      }
    }
    // the session cookie expired in the jar: the site would not know the crawler any more
    return login.successCookie().map(name -> !jars.has(origin, name)).orElse(false);
  }

  private CompletableFuture<Optional<String>> login(
      HttpClient client, String origin, Access.Login login, Map<String, String> headers) {
    Session session = sessions.computeIfAbsent(origin, key -> new Session());
    CompletableFuture<Optional<String>> result;
    synchronized (session) {
      if (session.pending != null) {
        return session.pending; // one login per origin at a time
      }
      long sinceFailure = System.currentTimeMillis() - session.failedAt;
      if (session.failedAt > 0 && sinceFailure < LOGIN_RETRY_AFTER.toMillis()) {
        return CompletableFuture.completedFuture(
            Optional.of(
                "login failed "
                    + sinceFailure / 1000
                    + " s ago ("
                    + session.failure
                    + "); tried again "
                    + LOGIN_RETRY_AFTER.toSeconds()
                    + " s after"));
      }
      result = new CompletableFuture<>();
      session.pending = result;
    }
    if (!Origin.keyOf(login.url()).equals(origin)) {
      finish(origin, session, result, Optional.of("the login URL is not on " + origin));
      return result;
    }
    Fields fields = new Fields();
    try {
      for (Map.Entry<String, String> field : login.fields().entrySet()) {
        fields.add(field.getKey(), secrets.resolve(field.getValue()));
      }
    } catch (Secrets.UnavailableException e) {
      finish(origin, session, result, Optional.of(e.getMessage()));
      return result;
    }
    long started = System.nanoTime();
    Request request =
        client
            .newRequest(login.url())
            .followRedirects(false)
            .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .headers(h -> headers.forEach(h::put));
    if (login.method().equalsIgnoreCase("get")) {
      fields.forEach(field -> request.param(field.getName(), field.getValue()));
      request.method(HttpMethod.GET);
    } else {
      request.method(HttpMethod.POST).body(new FormRequestContent(fields, StandardCharsets.UTF_8));
    }
    send(client, origin, login, headers, request, 0, started, session, result);
    return result;
  }

  private void send(
      HttpClient client,
      String origin,
      Access.Login login,
      Map<String, String> headers,
      Request request,
      int redirects,
      long started,
      Session session,
      CompletableFuture<Optional<String>> result) {
    request.send(
        new BufferingResponseListener(MAX_LOGIN_ANSWER_BYTES) {
          @Override
          public void onComplete(Result answer) {
            if (answer.isFailed()) {
              finish(
                  origin,
                  session,
                  result,
                  Optional.of(
                      "the login request failed: " + Failures.describe(answer.getFailure())));
              return;
            }
            int status = answer.getResponse().getStatus();
            Optional<String> next =
                Optional.ofNullable(answer.getResponse().getHeaders().get(HttpHeader.LOCATION))
                    .flatMap(
                        location -> UrlNormalizer.resolve(request.getURI().toString(), location))
                    .filter(target -> Origin.keyOf(target).equals(origin));
            boolean hasCookie =
                login.successCookie().map(name -> jars.has(origin, name)).orElse(false);
            if (status >= 300
                && status < 400
                && next.isPresent()
                && !hasCookie
                && redirects < MAX_LOGIN_REDIRECTS) {
              Request follow =
                  client
                      .newRequest(next.get())
                      .method(HttpMethod.GET)
                      .followRedirects(false)
                      .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                      .headers(h -> headers.forEach(h::put));
              send(client, origin, login, headers, follow, redirects + 1, started, session, result);
              return;
            }
            boolean hasText =
                login.successText().map(text -> getContentAsString().contains(text)).orElse(false);
            if (status < 400 && (hasCookie || hasText)) {
              LOG.info(
                  "{}: logged in ({} ms)",
                  origin,
                  TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
              finish(origin, session, result, Optional.empty());
            } else {
              finish(
                  origin,
                  session,
                  result,
                  Optional.of(
                      "the login answered "
                          + status
                          + " without "
                          + login
                              .successCookie()
                              .map(name -> "the cookie " + name)
                              .orElseGet(() -> "its success text")));
            }
          }
        });
  }

  private void finish(
      String origin,
      Session session,
      CompletableFuture<Optional<String>> result,
      Optional<String> failure) {
    synchronized (session) {
      session.pending = null;
      if (failure.isPresent()) {
        session.loggedInAt = 0;
        session.failedAt = System.currentTimeMillis();
        session.failure = failure.get();
      } else {
        session.loggedInAt = System.currentTimeMillis();
        session.failedAt = 0;
      }
    }
    failure.ifPresent(reason -> LOG.warn("{}: login failed: {}", origin, reason));
    result.complete(failure);
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

  /** Registers the origin's HTTP authentication with the client, or renews it when it changed. */
  private void authenticate(HttpClient client, String origin, Access.Auth auth)
      throws Secrets.UnavailableException {
    String user = secrets.resolve(auth.user());
    String password = secrets.resolve(auth.password());
    String key = auth.scheme() + "\n" + user + "\n" + Integer.toHexString(password.hashCode());
    if (key.equals(authenticationKeys.get(origin))) {
      return;
    }
    synchronized (authentications) {
      URI uri = URI.create(origin);
      Authentication old = authentications.remove(origin);
      if (old != null) {
        client.getAuthenticationStore().removeAuthentication(old);
        client.getAuthenticationStore().clearAuthenticationResults();
      }
      Authentication authentication =
          auth.scheme() == Access.AuthScheme.DIGEST
              ? new DigestAuthentication(uri, Authentication.ANY_REALM, user, password)
              : new BasicAuthentication(uri, Authentication.ANY_REALM, user, password);
      client.getAuthenticationStore().addAuthentication(authentication);
      authentications.put(origin, authentication);
      authenticationKeys.put(origin, key);
    }
  }

  private static CompletableFuture<Prepared> refused(String detail) {
    return CompletableFuture.completedFuture(new Refused(FailureKind.ACCESS_FAILED, detail));
  }

  private static String withoutQuery(String url) {
    int end = url.indexOf('?');
    String base = end < 0 ? url : url.substring(0, end);
    return UrlNormalizer.tryNormalize(base).orElse(base).toLowerCase(Locale.ROOT);
  }
}
