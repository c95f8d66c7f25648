package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.LoginSession;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.options.Access;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.FormRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The form logins of the origins whose options set one ({@link Access.Login}): their requests,
 * while {@link LoginSession} decides when one is made and whether it succeeded. The login's fields
 * are resolved from their secrets only when it is sent, to its own origin only, and its redirects
 * are followed within that origin. Time is the injected clock's, the one the cookie jars expire
 * cookies by. Thread-safe.
 */
final class OriginLogins {

  private static final Logger LOG = LoggerFactory.getLogger(OriginLogins.class);

  /** How long after a failed login the origin's requests fail without another try. */
  static final Duration LOGIN_RETRY_AFTER = Duration.ofMillis(LoginSession.RETRY_AFTER_MILLIS);

  /** The most of a login's answer read for its success text. */
  static final int MAX_LOGIN_ANSWER_BYTES = 1024 * 1024;

  /** Redirects a login's answer is followed through, within its origin. */
  static final int MAX_LOGIN_REDIRECTS = LoginSession.MAX_REDIRECTS;

  private final OriginCookieJars jars;
  private final Secrets secrets;
  private final Duration requestTimeout;
  private final InstantSource clock;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** An origin's login rules and the login under way, if any; guarded by itself. */
  private static final class Session {
    final LoginSession rules = new LoginSession();
    CompletableFuture<Optional<String>> pending;
  }

  /**
   * @param jars where the sessions' cookies are kept
   * @param requestTimeout how long each request of a login may take
   * @param clock the time sessions and back-offs are judged by
   */
  OriginLogins(
      OriginCookieJars jars, Secrets secrets, Duration requestTimeout, InstantSource clock) {
    this.jars = jars;
    this.secrets = secrets;
    this.requestTimeout = requestTimeout;
    this.clock = clock;
  }

  /** Whether an answer says the origin's session is over: a 401, a 403, or a redirect to login. */
  static boolean isLoggedOut(Call call, int status, Optional<String> location) {
    return call.access()
        .login()
        .map(login -> LoginSession.isLoggedOut(login, call.url(), status, location))
        .orElse(false);
  }

  /** Whether the origin needs a login before its next request: it has no session in force. */
  boolean isNeeded(String origin, Access.Login login) {
    Session session = sessions.get(origin);
    if (session == null) {
      return true;
    }
    synchronized (session) {
      return !(next(session, origin, login) instanceof LoginSession.Valid);
    }
  }

  /**
   * Logs in again after an answer said the session is over; completes with a failure, if any.
   *
   * @param headers the site's headers, secrets resolved
   */
  CompletableFuture<Optional<String>> again(
      HttpClient client, String origin, Access.Login login, Map<String, String> headers) {
    Session session = sessions.computeIfAbsent(origin, key -> new Session());
    synchronized (session) {
      session.rules.ended(); // the site ended it
    }
    LOG.info("{}: the session is over, logging in again", origin);
    return login(client, origin, login, headers);
  }

  /**
   * Logs in, or joins the login under way; completes with a failure, if any. A login that failed
   * less than {@link #LOGIN_RETRY_AFTER} ago fails again without a request.
   *
   * @param headers the site's headers, secrets resolved
   */
  CompletableFuture<Optional<String>> login(
      HttpClient client, String origin, Access.Login login, Map<String, String> headers) {
    Session session = sessions.computeIfAbsent(origin, key -> new Session());
    CompletableFuture<Optional<String>> result;
    synchronized (session) {
      LoginSession.Next next = next(session, origin, login);
      if (next instanceof LoginSession.Join) {
        return session.pending;
      }
      if (next instanceof LoginSession.BackOff backOff) {
        return CompletableFuture.completedFuture(Optional.of(backOff.detail()));
      }
      if (next instanceof LoginSession.Valid) {
        return CompletableFuture.completedFuture(Optional.empty()); // logged in meanwhile
      }
      if (next instanceof LoginSession.Renew) {
        LOG.info("{}: the session cookie expired, logging in again", origin);
      }
      result = new CompletableFuture<>();
      session.pending = result;
      session.rules.started();
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

  /** Forgets the origin's session. */
  void forget(String origin) {
    sessions.remove(origin);
  }

  /** Forgets every origin's session. */
  void forgetAll() {
    sessions.clear();
  }

  /** What the origin's next request needs; the caller holds the session's lock. */
  private LoginSession.Next next(Session session, String origin, Access.Login login) {
    return session.rules.next(
        login,
        login
            .successCookie()
            .map(name -> jars.expiresAt(origin, name))
            .orElse(OptionalLong.empty()),
        clock.millis());
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
            boolean hasCookie =
                login.successCookie().map(name -> jars.has(origin, name)).orElse(false);
            LoginSession.Answer judged =
                LoginSession.judge(
                    login,
                    request.getURI().toString(),
                    status,
                    Optional.ofNullable(answer.getResponse().getHeaders().get(HttpHeader.LOCATION)),
                    hasCookie,
                    login.successText().isPresent() ? getContentAsString() : "",
                    redirects);
            if (judged instanceof LoginSession.Follow follow) {
              Request next =
                  client
                      .newRequest(follow.url())
                      .method(HttpMethod.GET)
                      .followRedirects(false)
                      .timeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                      .headers(h -> headers.forEach(h::put));
              send(client, origin, login, headers, next, redirects + 1, started, session, result);
            } else if (judged instanceof LoginSession.Failed failed) {
              finish(origin, session, result, Optional.of(failed.detail()));
            } else {
              LOG.info(
                  "{}: logged in ({} ms)",
                  origin,
                  TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
              finish(origin, session, result, Optional.empty());
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
        session.rules.failed(failure.get(), clock.millis());
      } else {
        session.rules.succeeded(clock.millis());
      }
    }
    failure.ifPresent(reason -> LOG.warn("{}: login failed: {}", origin, reason));
    result.complete(failure);
  }
}
