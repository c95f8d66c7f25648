package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.UrlLifecycle.AfterFetch;
import dev.crawler.frontier.domain.UrlLifecycle.Rediscovery;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlLifecycleTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  /**
   * Times are minutes relative to {@link #NOW} (empty: never). Seed 001: first state wins and an
   * error blacklists until cleared; seed 002: premature and sitemap lastmod; seed 000: recrawl.
   */
  @ParameterizedTest(
      name =
          "{0} decided {1} due {2} awaiting {3} premature-logged {4}, found as {5} lastmod {6}"
              + " cleared {7} -> {8}")
  @CsvSource({
    // status,  decided, due, awaiting, logged, kind,    lastmod, cleared, expected
    "QUEUED,    -10,    ,    ,         false,  LINK,    ,        ,        KNOWN",
    "IN_FLIGHT, -10,    ,    ,         false,  LINK,    ,        ,        KNOWN",
    "RESERVING, -10,    ,    ,         false,  LINK,    ,        ,        KNOWN",
    "DONE,      -10,    ,    ,         false,  LINK,    ,        ,        KNOWN",
    "DONE,      -10,    ,    ,         false,  CANONICAL, ,      ,        KNOWN",
    "DONE,      -10,    ,    ,         false,  RECRAWL, ,        ,        RECRAWL_NOW",
    "ERROR,     -10,    ,    ,         false,  RECRAWL, ,        ,        RECRAWL_NOW",
    "QUEUED,    -10,    ,    ,         false,  RECRAWL, ,        ,        BEING_FETCHED",
    "IN_FLIGHT, -10,    ,    ,         false,  RECRAWL, ,        ,        BEING_FETCHED",
    "ERROR,     -10,    ,    ,         false,  LINK,    ,        ,        BLACKLISTED",
    "ERROR,     -10,    ,    ,         false,  LINK,    ,        -20,     BLACKLISTED",
    "ERROR,     -10,    ,    ,         false,  LINK,    ,        -5,      DECIDE_AGAIN",
    "ERROR,     -10,    ,    ,         false,  LINK,    ,        -10,     DECIDE_AGAIN",
    "DONE,      -10,    50,  ,         false,  LINK,    ,        ,        PREMATURE",
    "DONE,      -10,    50,  ,         true,   LINK,    ,        ,        KNOWN",
    "DONE,      -10,    0,   ,         false,  LINK,    ,        ,        KNOWN",
    "DONE,      -10,    50,  ,         false,  SITEMAP, -5,      ,        CHANGED_SINCE_FETCH",
    "DONE,      -10,    50,  ,         false,  SITEMAP, -15,     ,        PREMATURE",
    "DONE,      -10,    ,    -1,       false,  LINK,    ,        ,        LINKED_AGAIN",
    "DONE,      -10,    50,  -1,       false,  LINK,    ,        ,        LINKED_AGAIN",
  })
  void decidesAKnownUrlDiscoveredAgain(
      UrlStatus status,
      long decided,
      Long due,
      Long awaiting,
      boolean isPrematureLogged,
      UrlKind kind,
      Long lastModified,
      Long cleared,
      Rediscovery expected) {
    UrlState known =
        UrlState.newBuilder()
            .setStatus(status)
            .setDecidedAt(at(decided))
            .setDueAt(due == null ? Instant.EPOCH : at(due))
            .setAwaitingLinkSince(awaiting == null ? Instant.EPOCH : at(awaiting))
            .setPrematureLogged(isPrematureLogged)
            .build();

    Rediscovery decision =
        UrlLifecycle.rediscovered(
            known,
            kind,
            lastModified == null ? null : at(lastModified),
            cleared == null ? 0 : at(cleared).toEpochMilli(),
            NOW);

    assertThat(decision).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} at attempt {1} of 3 -> {2}")
  @CsvSource({
    "DEFERRED,      3, QUEUED_AGAIN",
    "NETWORK_ERROR, 1, RETRIED",
    "RATE_LIMITED,  2, RETRIED",
    "NETWORK_ERROR, 3, ERROR",
    "RATE_LIMITED,  3, ERROR",
    "NOT_FOUND,     1, ERROR",
    "GONE,          1, ERROR",
    "BAD_STATUS,    1, ERROR",
    "COMMITTED,     1, DONE",
    "REDIRECT,      1, DONE",
    "UNMODIFIED,    1, DONE",
    "BLOCKED_BY_ROBOTS_TXT, 1, DONE",
  })
  void decidesWhatAnOutcomeDoesToTheUrl(Outcome outcome, int attempt, AfterFetch expected) {
    FrontierSettings settings =
        new FrontierSettings(CrawlConfig.DEFAULTS, List.of(), 0, 2, Duration.ofSeconds(60), 3);

    assertThat(UrlLifecycle.afterFetch(outcome, attempt, settings)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} request {1}, outcome of {2} -> late {3}")
  @CsvSource({
    "IN_FLIGHT, r1, r1, false",
    "IN_FLIGHT, r1, r2, true",
    "QUEUED,    r1, r1, true",
    "DONE,      r1, r1, true",
    ",          ,   r1, true",
  })
  void ignoresALateOutcome(UrlStatus status, String requestId, String of, boolean isLate) {
    UrlState state =
        status == null
            ? null
            : UrlState.newBuilder().setStatus(status).setRequestId(requestId).build();

    assertThat(UrlLifecycle.isLate(state, of)).isEqualTo(isLate);
  }

  @ParameterizedTest(name = "{0} given up after {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "NETWORK_ERROR | 3 | connect refused | true  | gave up after 3 attempts: connect refused",
        "RATE_LIMITED  | 3 |                 | true  | gave up after 3 attempts",
        "NOT_FOUND     | 1 |                 | false | gave up after 1 attempts",
      })
  void saysWhenTheRetriesWereSpent(
      Outcome outcome, int attempts, String detail, boolean isGivenUp, String given) {
    assertThat(UrlLifecycle.isGivenUp(outcome)).isEqualTo(isGivenUp);
    assertThat(UrlLifecycle.givenUpDetail(attempts, detail)).isEqualTo(given);
  }

  private static Instant at(long minutes) {
    return NOW.plus(Duration.ofMinutes(minutes));
  }
}
