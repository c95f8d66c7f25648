package dev.crawler.fetcher.kafka;

import dev.crawler.common.decision.Decision;
import dev.crawler.common.usage.UsageFindings;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.Outcome;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchVerdict;
import dev.crawler.fetcher.domain.HostQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;

/**
 * Ends requests: writes through the {@link ResultWriter} what each gave (the page for the parser,
 * or the URL's outcome with a redirect's target and the exchanges for the archive), the request
 * marked done once written. When the request's origin will not be fetched for a while, the frontier
 * is told when to come back. Owned by the fetch loop's thread.
 */
final class RequestEnds {

  private final Origins origins;
  private final ResultWriter writer;
  private final FetchRecords records;
  private final PartitionOffsets offsets;
  private final InstantSource clock;
  private final long maxHoldMillis;

  /**
   * @param maxHold the longest a request waits here for its origin; beyond, it is deferred
   */
  RequestEnds(
      Origins origins,
      ResultWriter writer,
      FetchRecords records,
      PartitionOffsets offsets,
      InstantSource clock,
      Duration maxHold) {
    this.origins = origins;
    this.writer = writer;
    this.records = records;
    this.offsets = offsets;
    this.clock = clock;
    this.maxHoldMillis = maxHold.toMillis();
  }

  /**
   * Writes what the attempt gave: the page for the parser, or the URL's outcome; with them, for the
   * archive, the exchanges of the HEAD request that went before the attempt, when one did.
   */
  void write(
      Pending pending, Instant startedAt, FetchAttempt attempt, Optional<FetchAttempt> head) {
    List<ProducerRecord<byte[], byte[]>> archived = new ArrayList<>(2);
    head.flatMap(
            before ->
                records.archived(
                    pending.origin(),
                    pending.url(),
                    pending.request().getRequestId(),
                    ExchangePurpose.HEAD,
                    before))
        .ifPresent(archived::add);
    FetchVerdict verdict = FetchVerdict.of(pending.url(), attempt);
    if (verdict.isFetched()) {
      FetchAttempt.Response response = (FetchAttempt.Response) attempt;
      List<ProducerRecord<byte[], byte[]>> written = new ArrayList<>(1 + archived.size());
      HostQueue<Pending> host = origins.get(pending.origin());
      UsageFindings usage = host == null ? UsageFindings.NONE : host.usageOf(pending.url());
      // first: its fallback is known
      written.add(records.result(pending, response, startedAt, usage));
      written.addAll(archived);
      writer.send(pending.partition(), pending.offset(), written, true);
      return;
    }
    Decision decision =
        Decision.of(pending.url(), verdict.outcome().orElseThrow(), verdict.detail().orElse(null))
            .withDuration(attempt.durationMillis());
    if (attempt instanceof FetchAttempt.Response response) {
      decision = decision.withStatus(response.status());
    }
    records
        .archived(
            pending.origin(),
            pending.url(),
            pending.request().getRequestId(),
            ExchangePurpose.PAGE,
            attempt)
        .ifPresent(archived::add);
    end(pending, decision, verdict.redirectTarget().orElse(null), archived);
  }

  /**
   * Answers every waiting request of the origin {@code DEFERRED}: the frontier queues them again
   * and holds the origin until {@code until}.
   */
  void deferWaiting(HostQueue<Pending> host, long until, String reason) {
    String detail = reason + "; not before " + Instant.ofEpochMilli(until);
    for (Pending pending : host.drain()) {
      origins.released();
      if (offsets.isOwned(pending.partition())) {
        end(
            pending,
            Decision.of(pending.url(), Outcome.DEFERRED, detail),
            null,
            host,
            until,
            List.of());
      }
    }
  }

  /**
   * Gives a waiting request back to the frontier ({@code DEFERRED}, not before now): it queues the
   * URL again and decides it anew at its release; the origin is not held.
   */
  void giveBack(Pending pending, String reason) {
    HostQueue<Pending> host = origins.get(pending.origin());
    end(
        pending,
        Decision.of(pending.url(), Outcome.DEFERRED, reason),
        null,
        host,
        clock.millis(),
        List.of());
  }

  /**
   * Ends a request with a decision; when its origin will not be fetched for a while, the frontier
   * is told when to come back.
   */
  void end(Pending pending, Decision decision, @Nullable String redirectTarget) {
    end(pending, decision, redirectTarget, List.of());
  }

  /** {@link #end(Pending, Decision, String)}, with the exchanges of the request for the archive. */
  private void end(
      Pending pending,
      Decision decision,
      @Nullable String redirectTarget,
      List<ProducerRecord<byte[], byte[]>> archived) {
    HostQueue<Pending> host = origins.get(pending.origin());
    long retryAt = host == null ? 0 : host.comesBackAt(clock.millis(), maxHoldMillis);
    end(pending, decision, redirectTarget, host, retryAt, archived);
  }

  /**
   * Writes the decision that ends a request, and a redirect's target; the request is marked done
   * once they are written.
   */
  private void end(
      Pending pending,
      Decision decision,
      @Nullable String redirectTarget,
      @Nullable HostQueue<Pending> host,
      long retryAt,
      List<ProducerRecord<byte[], byte[]>> archived) {
    long originDelay = host == null ? -1 : host.politeness().delay().millis();
    Decision withRequest =
        decision.withRequest(
            pending.request().getRequestId(),
            pending.request().getDepth(),
            pending.request().getAttempt());
    List<ProducerRecord<byte[], byte[]>> records =
        new ArrayList<>(
            this.records.ending(pending, withRequest, redirectTarget, retryAt, originDelay));
    records.addAll(archived);
    writer.send(pending.partition(), pending.offset(), records, false);
  }
}
