package dev.crawler.fetcher.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.options.Access;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The rules of one origin's form login ({@link Access.Login}) and its session, free of I/O: what
 * the origin's next request needs (a login, a renewal, nothing, or to wait), whether a login's
 * answer succeeded, and whether a page's answer says the session is over. A login is made before
 * the origin's first page, and again when the session cookie expired or the site ended the session;
 * one at a time; a failed one is not tried again for {@link #RETRY_AFTER_MILLIS}. Times are epoch
 * milliseconds passed in, from the caller's clock. Not thread-safe: its owner holds its lock.
 */
public final class LoginSession {

  /** How long after a failed login the origin's requests fail without another try, in ms. */
  public static final long RETRY_AFTER_MILLIS = 60_000;

  /** Redirects a login's answer is followed through, within its origin. */
  public static final int MAX_REDIRECTS = 5;

  /** What the origin's next request needs. */
  public sealed interface Next {}

  /** The session is in force: the request goes. */
  public record Valid() implements Next {}

  /** No session: log in first (never logged in, forgotten, or ended by the site). */
  public record LogIn() implements Next {}

  /** The session cookie expired (or left the jar): log in again first. */
  public record Renew() implements Next {}

  /** A login is under way: wait for its end. */
  public record Join() implements Next {}

  /**
   * The last login failed less than {@link #RETRY_AFTER_MILLIS} ago: the request fails without one.
   *
   * @param until when a login is tried again (epoch ms)
   * @param detail the failure, in words (no secret)
   */
  public record BackOff(long until, String detail) implements Next {}

  /** What a login's answer says. */
  public sealed interface Answer {}

  /** Follow the answer's redirect, within the origin, before judging. */
  public record Follow(String url) implements Answer {}

  /** Logged in. */
  public record Succeeded() implements Answer {}

  /** The login failed; the detail says how (no secret). */
  public record Failed(String detail) implements Answer {}

  private boolean isPending;
  private long loggedInAt;
  private long failedAt;
  private String failure = "";

  /**
   * What the origin's next request needs, at {@code now}.
   *
   * @param sessionCookieExpiresAt when the login's success cookie, as the jar holds it, expires
   *     (epoch ms; {@link Long#MAX_VALUE} for one that lasts the session); empty when the jar holds
   *     none. Not read for a login known by its success text.
   */
  public Next next(Access.Login login, OptionalLong sessionCookieExpiresAt, long now) {
    if (isPending) {
      return new Join(); // one login per origin at a time
    }
    if (failedAt > 0 && now - failedAt < RETRY_AFTER_MILLIS) {
      return new BackOff(
          failedAt + RETRY_AFTER_MILLIS,
          "login failed "
              + (now - failedAt) / 1000
              + " s ago ("
              + failure
              + "); tried again "
              + RETRY_AFTER_MILLIS / 1000
              + " s after");
    }
    if (loggedInAt == 0) {
      return new LogIn();
    }
    boolean isCookieGone =
        login.successCookie().isPresent()
            && (sessionCookieExpiresAt.isEmpty() || sessionCookieExpiresAt.getAsLong() <= now);
    // the session cookie expired in the jar: the site would not know the crawler any more
    return isCookieGone ? new Renew() : new Valid();
  }

  /** A login starts (after {@link LogIn} or {@link Renew}). */
  public void started() {
    isPending = true;
  }

  /** The login under way succeeded at {@code now}. */
  public void succeeded(long now) {
    isPending = false;
    loggedInAt = now;
    failedAt = 0;
    failure = "";
  }

  /** The login under way failed at {@code now}; the detail names no secret. */
  public void failed(String detail, long now) {
    isPending = false;
    loggedInAt = 0;
    failedAt = now;
    failure = detail;
  }

  /** The site said the session is over: the next request logs in, unless a login is under way. */
  public void ended() {
    if (!isPending) {
      loggedInAt = 0;
    }
  }

  /**
   * What a login's answer says: a redirect within the origin is followed (at most {@link
   * #MAX_REDIRECTS}) until the success cookie is set; then the login succeeded when the status is
   * below 400 and the success cookie was set or the body holds the success text.
   *
   * @param requestUrl the URL the answer came from
   * @param location the answer's Location header, if any
   * @param hasSuccessCookie whether the jar now holds the login's success cookie
   * @param body the answer's text, as far as it was read
   * @param redirects redirects followed so far
   */
  public static Answer judge(
      Access.Login login,
      String requestUrl,
      int status,
      Optional<String> location,
      boolean hasSuccessCookie,
      String body,
      int redirects) {
    String origin = Origin.keyOf(login.url());
    Optional<String> next =
        location
            .flatMap(target -> UrlNormalizer.resolve(requestUrl, target))
            .filter(target -> isOn(origin, target));
    if (status >= 300
        && status < 400
        && next.isPresent()
        && !hasSuccessCookie
        && redirects < MAX_REDIRECTS) {
      return new Follow(next.get());
    }
    boolean hasText = login.successText().map(body::contains).orElse(false);
    if (status < 400 && (hasSuccessCookie || hasText)) {
      return new Succeeded();
    }
    return new Failed(
        "the login answered "
            + status
            + " without "
            + login.successCookie().map(name -> "the cookie " + name).orElse("its success text"));
  }

  /**
   * Whether a page's answer says the origin's session is over: a 401, a 403, or a redirect to the
   * login page (its query aside).
   *
   * @param url the page's URL
   * @param location the answer's Location header, if any
   */
  public static boolean isLoggedOut(
      Access.Login login, String url, int status, Optional<String> location) {
    if (status == 401 || status == 403) {
      return true;
    }
    return status >= 300
        && status < 400
        && location
            .flatMap(target -> UrlNormalizer.resolve(url, target))
            .map(target -> withoutQuery(target).equals(withoutQuery(login.url())))
            .orElse(false);
  }

  private static boolean isOn(String origin, String url) {
    try {
      return Origin.keyOf(url).equals(origin);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String withoutQuery(String url) {
    int end = url.indexOf('?');
    String base = end < 0 ? url : url.substring(0, end);
    return UrlNormalizer.tryNormalize(base).orElse(base).toLowerCase(Locale.ROOT);
  }
}
