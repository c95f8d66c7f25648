package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.LoginSession.Answer;
import dev.crawler.fetcher.domain.LoginSession.Next;
import dev.crawler.schemas.options.Access;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoginSessionTest {

  private static final String SITE = "https://members.test";
  private static final long T0 = 1_700_000_000_000L;

  private static final Access.Login BY_COOKIE =
      new Access.Login(
          SITE + "/login",
          "post",
          Map.of("user", "crawler", "password", "${env:PASSWORD}"),
          Optional.of("SESSION"),
          Optional.empty());

  private static final Access.Login BY_TEXT =
      new Access.Login(
          SITE + "/login", "post", Map.of(), Optional.empty(), Optional.of("Welcome back"));

  /**
   * A session brought to a state at T0 (none, a login under way, logged in, a login failed, logged
   * in and ended by the site), then asked at T0 + {@code after} ms what the next request needs, the
   * jar's session cookie expiring at T0 + {@code cookie} ms ("-" none, "session" never).
   */
  @ParameterizedTest(name = "{0}, cookie {1}, {2} ms later -> {3}")
  @CsvSource({
    // never logged in: log in first
    "none,      -,       0,      LogIn",
    // one login at a time
    "pending,   -,       0,      Join",
    "pending,   5000,    0,      Join",
    // a session in force while its cookie lasts
    "loggedIn,  5000,    0,      Valid",
    "loggedIn,  5000,    4999,   Valid",
    "loggedIn,  session, 999999, Valid",
    // the cookie expired or left the jar: renew
    "loggedIn,  5000,    5000,   Renew",
    "loggedIn,  5000,    7000,   Renew",
    "loggedIn,  -,       0,      Renew",
    // a failed login is not tried again for 60 s
    "failed,    -,       0,      BackOff",
    "failed,    -,       59999,  BackOff",
    "failed,    -,       60000,  LogIn",
    // the site ended the session (a 401, 403 or a redirect to the login page)
    "ended,     5000,    0,      LogIn",
  })
  void decidesWhatTheNextRequestNeeds(String state, String cookie, long after, String expected) {
    LoginSession session = session(state);

    Next next = session.next(BY_COOKIE, cookieAt(cookie), T0 + after);

    assertThat(next.getClass().getSimpleName()).isEqualTo(expected);
  }

  private static LoginSession session(String state) {
    LoginSession session = new LoginSession();
    switch (state) {
      case "none" -> {}
      case "pending" -> session.started();
      case "loggedIn" -> {
        session.started();
        session.succeeded(T0);
      }
      case "failed" -> {
        session.started();
        session.failed("the login answered 403 without the cookie SESSION", T0);
      }
      case "ended" -> {
        session.started();
        session.succeeded(T0);
        session.ended();
      }
      default -> throw new IllegalArgumentException(state);
    }
    return session;
  }

  private static OptionalLong cookieAt(String cell) {
    return switch (cell) {
      case "-" -> OptionalLong.empty();
      case "session" -> OptionalLong.of(Long.MAX_VALUE);
      default -> OptionalLong.of(T0 + Long.parseLong(cell));
    };
  }

  @Test
  void aLoginKnownByItsTextLastsUntilTheSiteEndsIt() {
    LoginSession session = session("loggedIn");

    assertThat(session.next(BY_TEXT, OptionalLong.empty(), T0 + 86_400_000))
        .isInstanceOf(LoginSession.Valid.class);
    session.ended();
    assertThat(session.next(BY_TEXT, OptionalLong.empty(), T0))
        .isInstanceOf(LoginSession.LogIn.class);
  }

  @Test
  void aBackOffSaysWhenAndWhyWithoutASecret() {
    LoginSession session = session("failed");

    assertThat(session.next(BY_COOKIE, OptionalLong.empty(), T0 + 12_345))
        .isEqualTo(
            new LoginSession.BackOff(
                T0 + 60_000,
                "login failed 12 s ago (the login answered 403 without the cookie SESSION);"
                    + " tried again 60 s after"));
  }

  @Test
  void theSiteEndingTheSessionDuringALoginLeavesTheLoginToFinish() {
    LoginSession session = session("pending");

    session.ended();

    assertThat(session.next(BY_COOKIE, OptionalLong.empty(), T0))
        .isInstanceOf(LoginSession.Join.class);
    session.succeeded(T0);
    assertThat(session.next(BY_COOKIE, OptionalLong.of(T0 + 1000), T0))
        .isInstanceOf(LoginSession.Valid.class);
  }

  /**
   * A login's answer: status, Location ("-" none), whether the jar now holds the success cookie,
   * the body, the redirects followed so far: what it says.
   */
  @ParameterizedTest(name = "{0} {1} cookie={2} body={3} redirects={4} -> {5}")
  @CsvSource({
    // the site sets the cookie and redirects to the members' page: logged in, no need to follow
    "302, /members/,                   true,  '',       0, Succeeded",
    // a redirect within the origin before the cookie: followed
    "302, /login/step-2,               false, '',       0, Follow https://members.test/login/step-2",
    "303, https://members.test/sso,    false, '',       4, Follow https://members.test/sso",
    // not to another origin, and not past the most redirects
    "302, https://elsewhere.test/sso,  false, '',       0, Failed the login answered 302 without the cookie SESSION",
    "302, /login/step-6,               false, '',       5, Failed the login answered 302 without the cookie SESSION",
    // the answer itself
    "200, -,                           true,  '',       0, Succeeded",
    "200, -,                           false, '',       0, Failed the login answered 200 without the cookie SESSION",
    "403, -,                           true,  '',       0, Failed the login answered 403 without the cookie SESSION",
  })
  void judgesALoginsAnswer(
      int status, String location, boolean hasCookie, String body, int redirects, String expected) {
    Answer answer =
        LoginSession.judge(
            BY_COOKIE,
            SITE + "/login",
            status,
            location.equals("-") ? Optional.empty() : Optional.of(location),
            hasCookie,
            body,
            redirects);

    assertThat(describe(answer)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} body={1} -> {2}")
  @CsvSource({
    "200, '<p>Welcome back, crawler</p>', Succeeded",
    "200, '<p>Wrong password</p>',        Failed the login answered 200 without its success text",
    "401, '<p>Welcome back, crawler</p>', Failed the login answered 401 without its success text",
  })
  void aLoginKnownByItsTextSucceedsWhenTheAnswerHoldsIt(int status, String body, String expected) {
    Answer answer =
        LoginSession.judge(BY_TEXT, SITE + "/login", status, Optional.empty(), false, body, 0);

    assertThat(describe(answer)).isEqualTo(expected);
  }

  private static String describe(Answer answer) {
    if (answer instanceof LoginSession.Follow follow) {
      return "Follow " + follow.url();
    }
    if (answer instanceof LoginSession.Failed failed) {
      return "Failed " + failed.detail();
    }
    return answer.getClass().getSimpleName();
  }

  @ParameterizedTest(name = "{0} Location {1} -> {2}")
  @CsvSource({
    "401, -,                                   true",
    "403, -,                                   true",
    "302, /login,                              true",
    "302, /login?next=%2Fmembers%2F4,          true",
    "302, https://MEMBERS.test/login,          true",
    "302, /members/,                           false",
    "302, https://elsewhere.test/login,        false",
    "200, -,                                   false",
    "404, -,                                   false",
  })
  void anAnswerSaysTheSessionIsOver(int status, String location, boolean isOver) {
    assertThat(
            LoginSession.isLoggedOut(
                BY_COOKIE,
                SITE + "/members/4",
                status,
                location.equals("-") ? Optional.empty() : Optional.of(location)))
        .isEqualTo(isOver);
  }
}
