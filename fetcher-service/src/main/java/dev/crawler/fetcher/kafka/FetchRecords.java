package dev.crawler.fetcher.kafka;

import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.usage.UsageFindings;
import dev.crawler.common.usage.UsagePreferences;
import dev.crawler.common.usage.UsageRecords;
import dev.crawler.events.AcknowledgerRole;
import dev.crawler.events.ArchivedExchanges;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.HttpExchange;
import dev.crawler.events.HttpHeader;
import dev.crawler.events.Outcome;
import dev.crawler.events.PolitenessState;
import dev.crawler.events.RobotsVerdict;
import dev.crawler.events.UrlKind;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.OriginPoliteness;
import dev.crawler.schemas.Origin;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.DeadLetters;
import dev.crawler.schemas.serde.UndecodableRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records the fetcher writes, serialized for its byte-array producer: a page's fetch result,
 * the outcome and crawl-log entry of a request that ended here (and a redirect's target as a
 * discovered URL), the sitemaps robots.txt names, politeness state and dead letters, all timed by
 * the loop's clock.
 */
final class FetchRecords {

  private static final Logger LOG = LoggerFactory.getLogger(FetchRecords.class);

  private final Topics topics;
  private final FetchTier tier;
  private final CrawlLog log;
  private final InstantSource clock;
  private final String instanceId;
  private final @Nullable ResultPartitions resultPartitions;

  /**
   * @param instanceId names this fetcher in the politeness state it writes
   * @param resultPartitions where a page's result goes, or null to leave it to the producer
   */
  FetchRecords(
      Topics topics,
      FetchTier tier,
      CrawlLog log,
      InstantSource clock,
      String instanceId,
      @Nullable ResultPartitions resultPartitions) {
    this.topics = topics;
    this.tier = tier;
    this.log = log;
    this.clock = clock;
    this.instanceId = instanceId;
    this.resultPartitions = resultPartitions;
  }

  /**
   * The fetch result of a page fetched for {@code pending}, the request sent at {@code startedAt}.
   */
  ProducerRecord<byte[], byte[]> result(
      Pending pending, FetchAttempt.Response response, Instant startedAt, UsageFindings usage) {
    FetchRequest request = pending.request();
    boolean wasRedirected = !response.redirectChain().isEmpty();
    FetchResult result =
        FetchResult.newBuilder()
            .setUrl(request.getUrl())
            .setRequestId(request.getRequestId())
            .setDepth(request.getDepth())
            .setAttempt(request.getAttempt())
            .setStatus(response.status())
            .setHeaders(response.headers())
            .setBody(ByteBuffer.wrap(response.body()))
            .setContentType(response.contentType().orElse(null))
            .setCharset(response.charset().orElse(null))
            .setFetchedAt(startedAt)
            .setDurationMillis(response.durationMillis())
            .setRedirectChain(response.redirectChain())
            .setFinalUrl(wasRedirected ? response.url() : null)
            .setRobotsVerdict(
                pending.options().obeysRobots() ? RobotsVerdict.ALLOWED : RobotsVerdict.IGNORED)
            .setKind(request.getKind())
            .setOptions(request.getOptions())
            .setExchanges(exchanges(response.exchanges()))
            .setRendered(response.rendered())
            .setUsage(
                usage.isEmpty() ? null : UsageRecords.toRecord(UsagePreferences.combine(usage)))
            .build();
    ProducerRecord<byte[], byte[]> record =
        topics.fetchResults().serialized(pending.origin(), result);
    Integer partition = resultPartitions == null ? null : resultPartitions.of(request.getUrl());
    return partition == null
        ? record
        : new ProducerRecord<>(record.topic(), partition, record.key(), record.value());
  }

  /**
   * The exchanges of a fetch that gave no fetch result (robots.txt, a redirect recorded, an error
   * status, a 304, a failure after the response began, a HEAD before a GET), for the archive alone,
   * each with its body as received: a response's last exchange, which carries none of its own when
   * its body is the decoded one, gets the response's body. Empty when none were recorded.
   *
   * @param requestId the fetch request's id; empty for robots.txt
   */
  Optional<ProducerRecord<byte[], byte[]>> archived(
      String origin, String url, String requestId, ExchangePurpose purpose, FetchAttempt attempt) {
    List<Exchange> recorded = attempt.exchanges();
    if (recorded.isEmpty()) {
      return Optional.empty();
    }
    Exchange last = recorded.get(recorded.size() - 1);
    if (last.rawBody().isEmpty() && attempt instanceof FetchAttempt.Response response) {
      recorded = new ArrayList<>(recorded);
      recorded.set(recorded.size() - 1, last.withRawBody(response.body()));
    }
    ArchivedExchanges archived =
        ArchivedExchanges.newBuilder()
            .setUrl(url)
            .setRequestId(requestId)
            .setPurpose(purpose)
            .setExchanges(exchanges(recorded))
            .build();
    return Optional.of(topics.exchanges().serialized(origin, archived));
  }

  private static List<HttpExchange> exchanges(List<Exchange> exchanges) {
    List<HttpExchange> records = new ArrayList<>(exchanges.size());
    for (Exchange exchange : exchanges) {
      records.add(
          HttpExchange.newBuilder()
              .setUrl(exchange.url())
              .setMethod(exchange.method())
              .setHttpVersion(exchange.httpVersion())
              .setPeerAddress(exchange.peerAddress().orElse(null))
              .setStartedAt(exchange.startedAt())
              .setRequestHeaders(headers(exchange.requestHeaders()))
              .setStatus(exchange.status())
              .setReason(exchange.reason())
              .setResponseHeaders(headers(exchange.responseHeaders()))
              .setRawBody(exchange.rawBody().map(ByteBuffer::wrap).orElse(null))
              .setTruncated(exchange.truncated().map(Exchange.Truncation::warcName).orElse(null))
              .build());
    }
    return records;
  }

  private static List<HttpHeader> headers(List<Exchange.Header> headers) {
    List<HttpHeader> records = new ArrayList<>(headers.size());
    for (Exchange.Header header : headers) {
      records.add(new HttpHeader(header.name(), header.value()));
    }
    return records;
  }

  /**
   * The records of a request that ended here: its outcome (with the time the frontier should come
   * back to the origin, when later than now, and the origin's delay), its crawl-log entry, and a
   * redirect's target as a discovered URL.
   *
   * @param retryAt when the origin may be fetched again (epoch ms); 0 when at once
   * @param originDelayMillis the origin's current delay; negative when the origin is not known
   */
  List<ProducerRecord<byte[], byte[]>> ending(
      Pending pending,
      Decision decision,
      @Nullable String redirectTarget,
      long retryAt,
      long originDelayMillis) {
    Instant now = clock.instant();
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(3);
    CrawlOutcome.Builder outcome = decision.toOutcome(tier.service(), now);
    if (retryAt > now.toEpochMilli()) {
      outcome.setRetryAt(Instant.ofEpochMilli(retryAt));
    }
    if (originDelayMillis >= 0) {
      outcome.setOriginDelayMillis(originDelayMillis);
    }
    records.add(topics.outcomes().serialized(pending.origin(), outcome.build()));
    records.add(
        topics
            .log()
            .serialized(
                pending.origin(), log.entry(decision, now, pending.request().getOptions())));
    if (redirectTarget != null) {
      DiscoveredUrl target =
          DiscoveredUrl.newBuilder()
              .setUrl(redirectTarget)
              .setSourceUrl(pending.url())
              .setDepth(pending.request().getDepth())
              .setKind(UrlKind.REDIRECT)
              .setDiscoveredAt(now)
              .build();
      records.add(topics.discovered().serialized(Origin.keyOf(redirectTarget), target));
    }
    return records;
  }

  /**
   * What is written in place of a fetch result Kafka refused for good (a record too large): an
   * {@code ERROR} outcome and its crawl-log entry, so the frontier does not wait for the URL. Empty
   * when the refused record is not a fetch result.
   */
  Optional<List<ProducerRecord<byte[], byte[]>>> inPlaceOf(
      ProducerRecord<byte[], byte[]> refused, Exception error) {
    FetchResult result =
        topics
            .fetchResults()
            .valueSerde()
            .deserializer()
            .deserialize(refused.topic(), refused.value());
    if (result == null) {
      return Optional.empty();
    }
    Decision decision =
        Decision.of(result.getUrl(), Outcome.ERROR, "cannot write the fetch result: " + error)
            .withRequest(result.getRequestId(), result.getDepth(), result.getAttempt());
    String origin = new String(refused.key(), StandardCharsets.UTF_8);
    Instant at = clock.instant();
    return Optional.of(
        List.of(
            topics.outcomes().serialized(origin, decision.toOutcome(tier.service(), at).build()),
            topics.log().serialized(origin, log.entry(decision, at))));
  }

  /** The crawl-log line that acknowledges an operator's command, keyed by its target. */
  ProducerRecord<byte[], byte[]> acknowledged(ControlCommand command, String what) {
    Decision decision =
        ControlTopic.acknowledgement(
            command, what + " (fetcher " + instanceId + ")", AcknowledgerRole.FETCHER, instanceId);
    return topics.log().serialized(decision.url(), log.entry(decision, clock.instant()));
  }

  /** A request record that cannot be decoded, for the dead-letter topic. */
  ProducerRecord<byte[], byte[]> deadLetter(
      ConsumerRecord<byte[], byte[]> raw, UndecodableRecordException error) {
    String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
    return topics
        .deadLetters()
        .serialized(key, DeadLetters.of(raw, error, tier.service(), clock.instant()));
  }

  /** The sitemaps a robots.txt names, as discovered URLs of kind sitemap. */
  List<ProducerRecord<byte[], byte[]>> sitemaps(String robotsUrl, List<String> sitemaps) {
    Instant now = clock.instant();
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(sitemaps.size());
    for (String sitemap : sitemaps) {
      String key;
      try {
        key = Origin.keyOf(sitemap);
      } catch (RuntimeException e) {
        LOG.debug("{} names a sitemap that is not a URL: {}", robotsUrl, sitemap);
        continue;
      }
      DiscoveredUrl discovered =
          DiscoveredUrl.newBuilder()
              .setUrl(sitemap)
              .setSourceUrl(robotsUrl)
              .setDepth(0)
              .setKind(UrlKind.SITEMAP)
              .setDiscoveredAt(now)
              .build();
      records.add(topics.discovered().serialized(key, discovered));
    }
    return records;
  }

  /** The origin's politeness state for its next owner, as of {@code now}. */
  ProducerRecord<byte[], byte[]> politeness(
      String origin, OriginPoliteness.Snapshot snapshot, long now) {
    PolitenessState state =
        PolitenessState.newBuilder()
            .setOrigin(origin)
            .setNextRequestAt(Instant.ofEpochMilli(Math.max(0, snapshot.nextStartAt())))
            .setBackoffMillis(snapshot.backoffMillis())
            .setBackoffChangedAt(Instant.ofEpochMilli(snapshot.backoffChangedAt()))
            .setPatience(snapshot.patience())
            .setFailureStreak(snapshot.failureStreak())
            .setPausedUntil(Instant.ofEpochMilli(snapshot.pausedUntil()))
            .setUpdatedAt(Instant.ofEpochMilli(now))
            .setFetcher(instanceId)
            .build();
    return tier.politeness().serialized(origin, state);
  }

  /** A tombstone: the origin's politeness is back to a fresh state. */
  ProducerRecord<byte[], byte[]> politenessWithdrawn(String origin) {
    return tier.politeness().serialized(origin, null);
  }

  /**
   * The politeness state in a record of the politeness topic; empty for a tombstone.
   *
   * @throws RuntimeException when the value cannot be decoded
   */
  Optional<OriginPoliteness.Snapshot> politenessIn(ConsumerRecord<byte[], byte[]> raw) {
    PolitenessState state =
        tier.politeness().valueSerde().deserializer().deserialize(raw.topic(), raw.value());
    if (state == null) {
      return Optional.empty();
    }
    return Optional.of(
        new OriginPoliteness.Snapshot(
            state.getNextRequestAt().toEpochMilli(),
            state.getBackoffMillis(),
            state.getBackoffChangedAt().toEpochMilli(),
            state.getPatience(),
            state.getFailureStreak(),
            state.getPausedUntil().toEpochMilli()));
  }
}
