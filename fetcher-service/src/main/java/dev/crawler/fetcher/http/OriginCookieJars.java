package dev.crawler.fetcher.http;

import dev.crawler.schemas.Origin;
import java.net.URI;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpCookieStore;

/**
 * A cookie jar per origin (scheme, host and port): what one site sets is sent back to that origin
 * only, never to another host, scheme or port. Only origins whose options ask for cookies (or a
 * login) have a jar; the others keep nothing. Jars live in memory only: a restarted fetcher, or one
 * that is handed an origin's partition, logs in again instead of taking a session over a topic. A
 * jar holds at most {@value #MAX_COOKIES} cookies of at most {@value #MAX_COOKIE_CHARS} characters
 * each; more are dropped. Cookies expire by the injected clock alone: a cookie's {@code Max-Age}
 * (or else its {@code Expires}) becomes an instant of that clock as it is stored, and a cookie
 * whose instant has passed is neither sent nor counted; a longer {@code Max-Age} than {@link
 * #MAX_AGE_SECONDS} counts as that. Thread-safe.
 */
final class OriginCookieJars {

  /** The most cookies one origin's jar keeps. */
  static final int MAX_COOKIES = 50;

  /** The longest cookie kept, name and value together. */
  static final int MAX_COOKIE_CHARS = 4096;

  /**
   * The longest a cookie is kept, in seconds: a longer {@code Max-Age} counts as this (400 days,
   * RFC 6265bis).
   */
  static final long MAX_AGE_SECONDS = 400L * 24 * 3600;

  /** The attribute a kept cookie's expiry is noted in, epoch ms of the clock; never sent. */
  private static final String EXPIRES_AT = "Crawler-Expires-At";

  private final ConcurrentMap<String, Jar> jars = new ConcurrentHashMap<>();
  private final InstantSource clock;

  private static final class Jar {
    final HttpCookieStore.Default store = new HttpCookieStore.Default();
    volatile boolean isCredential;
  }

  /**
   * @param clock the time cookies expire by
   */
  OriginCookieJars(InstantSource clock) {
    this.clock = clock;
  }

  /**
   * Gives the origin a jar, if it has none. A jar that holds a login's session is a credential: the
   * client that does not verify TLS neither sends nor fills it.
   */
  void enable(String origin, boolean isCredential) {
    Jar jar = jars.computeIfAbsent(origin, key -> new Jar());
    if (isCredential) {
      jar.isCredential = true;
    }
  }

  /** Whether the origin's jar holds a cookie of that name that has not expired. */
  boolean has(String origin, String name) {
    return expiresAt(origin, name).isPresent();
  }

  /**
   * When the origin's cookie of that name that lasts longest expires (epoch ms; {@link
   * Long#MAX_VALUE} for one that lasts the session); empty when the jar holds none that has not
   * expired.
   */
  OptionalLong expiresAt(String origin, String name) {
    Jar jar = jars.get(origin);
    if (jar == null) {
      return OptionalLong.empty();
    }
    long now = clock.millis();
    return jar.store.all().stream()
        .filter(cookie -> cookie.getName().equals(name))
        .mapToLong(OriginCookieJars::expiresAt)
        .filter(expires -> expires > now)
        .max();
  }

  /** Empties and drops the origin's jar; true if it had one. */
  boolean forget(String origin) {
    return jars.remove(origin) != null;
  }

  /** Empties and drops every jar; returns how many there were. */
  int forgetAll() {
    int count = jars.size();
    jars.clear();
    return count;
  }

  /**
   * The store a client uses: {@code verified} for the client that verifies TLS, the only one that
   * may use a jar that is a credential.
   */
  HttpCookieStore store(boolean verified) {
    return new HttpCookieStore() {
      @Override
      public boolean add(URI uri, HttpCookie cookie) {
        Jar jar = jarOf(uri, verified);
        if (jar == null
            || cookie.getName().length() + cookie.getValue().length() > MAX_COOKIE_CHARS) {
          return false;
        }
        synchronized (jar) {
          if (jar.store.all().size() >= MAX_COOKIES) {
            return false;
          }
          return jar.store.add(uri, expiringByClock(cookie));
        }
      }

      @Override
      public List<HttpCookie> all() {
        return List.of(); // no caller needs every origin's cookies
      }

      @Override
      public List<HttpCookie> match(URI uri) {
        Jar jar = jarOf(uri, verified);
        if (jar == null) {
          return List.of();
        }
        long now = clock.millis();
        return jar.store.match(uri).stream().filter(cookie -> expiresAt(cookie) > now).toList();
      }

      @Override
      public boolean remove(URI uri, HttpCookie cookie) {
        Jar jar = jarOf(uri, verified);
        return jar != null && jar.store.remove(uri, cookie);
      }

      @Override
      public boolean clear() {
        return false; // jars are dropped per origin, by the fetcher
      }
    };
  }

  /**
   * The cookie as the jar keeps it: its {@code Max-Age} or {@code Expires} turned into an instant
   * of the clock ({@link #EXPIRES_AT}), so that Jetty's store, which judges them by the system
   * clock, keeps it until the jar drops it; a cookie that is already expired by the clock deletes
   * its namesake ({@code Max-Age=0}); one that lasts the session as it is.
   */
  private HttpCookie expiringByClock(HttpCookie cookie) {
    long maxAge = cookie.getMaxAge();
    Instant expires = cookie.getExpires();
    if (maxAge == 0 || (maxAge < 0 && expires == null)) {
      return cookie;
    }
    long now = clock.millis();
    // Max-Age wins over Expires (RFC 6265 §5.3)
    long expiresAt =
        maxAge > 0 ? now + Math.min(maxAge, MAX_AGE_SECONDS) * 1000 : expires.toEpochMilli();
    if (expiresAt <= now) {
      return HttpCookie.build(cookie).expires(null).maxAge(0).build();
    }
    return HttpCookie.build(cookie)
        .maxAge(-1)
        .expires(null)
        .attribute(EXPIRES_AT, Long.toString(expiresAt))
        .build();
  }

  /** When a stored cookie expires (epoch ms), {@link Long#MAX_VALUE} when it lasts the session. */
  private static long expiresAt(HttpCookie cookie) {
    if (cookie.getMaxAge() == 0) {
      return Long.MIN_VALUE;
    }
    String expiresAt = cookie.getAttributes().get(EXPIRES_AT);
    return expiresAt == null ? Long.MAX_VALUE : Long.parseLong(expiresAt);
  }

  private Jar jarOf(URI uri, boolean verified) {
    if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
      return null;
    }
    String origin;
    try {
      origin = Origin.keyOf(uri.toString());
    } catch (RuntimeException e) {
      return null;
    }
    Jar jar = jars.get(origin);
    return jar == null || (jar.isCredential && !verified) ? null : jar;
  }
}
