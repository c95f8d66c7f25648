package dev.crawler.fetcher.http;

import dev.crawler.schemas.Origin;
import java.net.URI;
import java.util.List;
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
 * each; more are dropped. Thread-safe.
 */
final class OriginCookieJars {

  /** The most cookies one origin's jar keeps. */
  static final int MAX_COOKIES = 50;

  /** The longest cookie kept, name and value together. */
  static final int MAX_COOKIE_CHARS = 4096;

  private final ConcurrentMap<String, Jar> jars = new ConcurrentHashMap<>();

  private static final class Jar {
    final HttpCookieStore.Default store = new HttpCookieStore.Default();
    volatile boolean isCredential;
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
    Jar jar = jars.get(origin);
    if (jar == null) {
      return false;
    }
    return jar.store.all().stream()
        .anyMatch(cookie -> cookie.getName().equals(name) && !cookie.isExpired());
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
          return jar.store.add(uri, cookie);
        }
      }

      @Override
      public List<HttpCookie> all() {
        return List.of(); // no caller needs every origin's cookies
      }

      @Override
      public List<HttpCookie> match(URI uri) {
        Jar jar = jarOf(uri, verified);
        return jar == null ? List.of() : jar.store.match(uri);
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
