package dev.crawler.common.decision;

import dev.crawler.events.Acknowledgement;
import dev.crawler.events.CrawlLogEntry;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.Outcome;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One decision a service made about a URL: the outcome, why, and the facts that go with it. The
 * same decision becomes the {@link CrawlOutcome} the frontier reads and the {@link CrawlLogEntry}
 * operators read, so the two never disagree.
 *
 * @param url the URL decided about
 * @param outcome what happened
 * @param detail why (the status, the redirect target, the error kind), or empty
 * @param rule the rule that decided, or empty
 * @param requestId the fetch request this ends, or empty when no request caused it
 * @param depth link hops from a seed
 * @param attempt which fetch attempt
 * @param status the HTTP status, when there was a response
 * @param sourceUrl the page the URL was found on, when known
 * @param durationMillis how long the fetch took, when there was one
 * @param acknowledgement the operator's command this decision says was applied, and by whom
 */
public record Decision(
    String url,
    Outcome outcome,
    Optional<String> detail,
    Optional<String> rule,
    String requestId,
    int depth,
    int attempt,
    Optional<Integer> status,
    Optional<String> sourceUrl,
    Optional<Long> durationMillis,
    Optional<Acknowledgement> acknowledgement) {

  /** A decision with only a detail; add facts with the {@code with*} methods. */
  public static Decision of(String url, Outcome outcome, @Nullable String detail) {
    return new Decision(
        url,
        outcome,
        Optional.ofNullable(detail),
        Optional.empty(),
        "",
        0,
        1,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  public Decision withRequest(String requestId, int depth, int attempt) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        status,
        sourceUrl,
        durationMillis,
        acknowledgement);
  }

  public Decision withDepth(int depth) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        status,
        sourceUrl,
        durationMillis,
        acknowledgement);
  }

  public Decision withRule(String rule) {
    return new Decision(
        url,
        outcome,
        detail,
        Optional.of(rule),
        requestId,
        depth,
        attempt,
        status,
        sourceUrl,
        durationMillis,
        acknowledgement);
  }

  public Decision withStatus(int status) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        Optional.of(status),
        sourceUrl,
        durationMillis,
        acknowledgement);
  }

  public Decision withSource(String sourceUrl) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        status,
        Optional.of(sourceUrl),
        durationMillis,
        acknowledgement);
  }

  public Decision withDuration(long millis) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        status,
        sourceUrl,
        Optional.of(millis),
        acknowledgement);
  }

  /** The decision as the acknowledgement of an operator's command. */
  public Decision withAcknowledgement(Acknowledgement acknowledgement) {
    return new Decision(
        url,
        outcome,
        detail,
        rule,
        requestId,
        depth,
        attempt,
        status,
        sourceUrl,
        durationMillis,
        Optional.of(acknowledgement));
  }

  /**
   * The outcome record for {@code crawl.outcomes}; checksums and validators are added by the
   * caller.
   */
  public CrawlOutcome.Builder toOutcome(String service, Instant time) {
    return CrawlOutcome.newBuilder()
        .setUrl(url)
        .setRequestId(requestId)
        .setOutcome(outcome)
        .setDetail(detail.orElse(null))
        .setTime(time)
        .setDepth(depth)
        .setAttempt(attempt)
        .setStatus(status.orElse(null))
        .setService(service);
  }

  /**
   * The entry for {@code crawl.log}. A service writes it through its {@link CrawlLog}, which counts
   * the decision by outcome.
   */
  public CrawlLogEntry toLogEntry(String service, Instant time) {
    return CrawlLogEntry.newBuilder()
        .setUrl(url)
        .setOutcome(outcome)
        .setDetail(detail.orElse(null))
        .setRule(rule.orElse(null))
        .setTime(time)
        .setService(service)
        .setDepth(depth)
        .setStatus(status.orElse(null))
        .setSourceUrl(sourceUrl.orElse(null))
        .setDurationMillis(durationMillis.orElse(null))
        .setAcknowledgement(acknowledgement.orElse(null))
        .build();
  }
}
