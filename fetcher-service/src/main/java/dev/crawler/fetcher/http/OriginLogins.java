package dev.crawler.fetcher.http;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.options.Access;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * The form logins of the origins whose options set one ({@link Access.Login}), and their sessions:
 * a login is made before the origin's first page and again when an answer says the session is over,
 * one at a time per origin; a failed one is not tried again for {@link #LOGIN_RETRY_AFTER}. The
 * login's fields are resolved from their secrets only when it is sent, to its own origin only, and
 * its redirects are followed within that origin. Thread-safe.
 */
final class OriginLogins {

  private static final Logger LOG = LoggerFactory.getLogger(OriginLogins.class);

  /** How long after a failed login the origin's requests fail without another try. */
  static final Duration LOGIN_RETRY_AFTER = Duration.ofSeconds(60);

  /** The most of a login's answer read for its success text. */
  static final int MAX_LOGIN_ANSWER_BYTES = 1024 * 1024;

  /** Redirects a login's answer is followed through, within its origin. */
  static final int MAX_LOGIN_REDIRECTS = 5;

  private final OriginCookieJars jars;
  private final Secrets secrets;
  private final Duration requestTimeout;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** An origin's login: the one under way, or when the last ended and how. */
  private static final class Session {
    CompletableFuture<Optional<String>> pending;
    long loggedInAt;
    long failedAt;
    String failure = "";
  }

  /**
   * @param jars where the sessions' cookies are kept
   * @param requestTimeout how long each request of a login may take
   */
  OriginLogins(OriginCookieJars jars, Secrets secrets, Duration requestTimeout) {
    this.jars = jars;
    this.secrets = secrets;
    this.requestTimeout = requestTimeout;
  }

  /** Whether an answer says the origin's session is over: a 401, a 403, or a redirect to login. */
  static boolean isLoggedOut(Call call, int status, Optional<String> location) {
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

  /** Whether the origin needs a login before its next request: it has no session in force. */
  boolean isNeeded(String origin, Access.Login login) {
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

  /**
   * Logs in again after an answer said the session is over; completes with a failure, if any.
   *
   * @param headers the site's headers, secrets resolved
   */
  CompletableFuture<Optional<String>> again(
      HttpClient client, String origin, Access.Login login, Map<String, String> headers) {
    Session session = sessions.computeIfAbsent(origin, key -> new Session());
    synchronized (session) {
      if (session.pending == null) {
        session.loggedInAt = 0; // the site ended it
      }
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

  /** Forgets the origin's session. */
  void forget(String origin) {
    sessions.remove(origin);
  }

  /** Forgets every origin's session. */
  void forgetAll() {
    sessions.clear();
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

  private static String withoutQuery(String url) {
    int end = url.indexOf('?');
    String base = end < 0 ? url : url.substring(0, end);
    return UrlNormalizer.tryNormalize(base).orElse(base).toLowerCase(Locale.ROOT);
  }
}
