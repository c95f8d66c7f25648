package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.time.InstantSource;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpCookieStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OriginCookieJarsTest {

  private static final String ORIGIN = "http://site.test:8080";
  private static final URI PAGE = URI.create(ORIGIN + "/members/1");

  /** A clock far from the system's, in both directions: the jar goes by it alone. */
  @ParameterizedTest(name = "clock at {0}: Max-Age 2 s, {1} ms later -> held {2}")
  @CsvSource({
    "0,             0,    true",
    "0,             1999, true",
    "0,             2000, false",
    "4102444800000, 1999, true",
    "4102444800000, 2000, false",
  })
  void aCookieExpiresByTheJarsClock(long start, long later, boolean isHeld) {
    AtomicLong millis = new AtomicLong(start);
    OriginCookieJars jars = new OriginCookieJars(clock(millis));
    jars.enable(ORIGIN, true);
    HttpCookieStore store = jars.store(true);

    store.add(PAGE, HttpCookie.build("SESSION", "s1").path("/").maxAge(2).build());
    millis.addAndGet(later);

    assertThat(jars.has(ORIGIN, "SESSION")).isEqualTo(isHeld);
    assertThat(store.match(PAGE)).hasSize(isHeld ? 1 : 0);
  }

  @Test
  void saysWhenTheLongestLastingCookieOfANameExpires() {
    AtomicLong millis = new AtomicLong(1_000_000);
    OriginCookieJars jars = new OriginCookieJars(clock(millis));
    jars.enable(ORIGIN, false);
    HttpCookieStore store = jars.store(false);

    assertThat(jars.expiresAt(ORIGIN, "SESSION")).isEmpty();
    store.add(PAGE, HttpCookie.build("SESSION", "s1").path("/").maxAge(2).build());
    assertThat(jars.expiresAt(ORIGIN, "SESSION")).isEqualTo(OptionalLong.of(1_002_000));
    store.add(PAGE, HttpCookie.build("SESSION", "s2").path("/").build());
    assertThat(jars.expiresAt(ORIGIN, "SESSION")).isEqualTo(OptionalLong.of(Long.MAX_VALUE));
    store.add(
        PAGE,
        HttpCookie.build("TRACK", "t").path("/").expires(Instant.ofEpochMilli(1_005_000)).build());
    assertThat(jars.expiresAt(ORIGIN, "TRACK")).isEqualTo(OptionalLong.of(1_005_000));
  }

  @Test
  void aCookieExpiredOnArrivalDeletesItsNamesake() {
    AtomicLong millis = new AtomicLong(1_000_000);
    OriginCookieJars jars = new OriginCookieJars(clock(millis));
    jars.enable(ORIGIN, false);
    HttpCookieStore store = jars.store(false);
    store.add(PAGE, HttpCookie.build("SESSION", "s1").path("/").maxAge(60).build());

    store.add(PAGE, HttpCookie.build("SESSION", "").path("/").maxAge(0).build());

    assertThat(jars.has(ORIGIN, "SESSION")).isFalse();
    store.add(PAGE, HttpCookie.build("TRACK", "t").path("/").maxAge(60).build());
    store.add(
        PAGE,
        HttpCookie.build("TRACK", "").path("/").expires(Instant.ofEpochMilli(999_000)).build());
    assertThat(jars.has(ORIGIN, "TRACK")).isFalse();
  }

  @Test
  void anOriginWithoutAJarKeepsNothing() {
    OriginCookieJars jars = new OriginCookieJars(InstantSource.system());

    assertThat(jars.store(true).add(PAGE, HttpCookie.from("SESSION", "s1"))).isFalse();
    assertThat(jars.has(ORIGIN, "SESSION")).isFalse();
  }

  private static InstantSource clock(AtomicLong millis) {
    return () -> Instant.ofEpochMilli(millis.get());
  }
}
