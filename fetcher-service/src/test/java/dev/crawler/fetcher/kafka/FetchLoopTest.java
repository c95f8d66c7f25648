package dev.crawler.fetcher.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.events.ArchivedExchanges;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.ExchangePurpose;
import dev.crawler.events.FetchRequest;
import dev.crawler.events.FetchResult;
import dev.crawler.events.HttpExchange;
import dev.crawler.events.Outcome;
import dev.crawler.events.PolitenessState;
import dev.crawler.events.UrlKind;
import dev.crawler.events.UsagePreference;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fetch loop's own decisions, without a broker or a server: Kafka's {@link MockConsumer} and
 * {@link MockProducer} (acknowledging only when the test says so), an HTTP fetcher whose answers
 * the test gives, and a clock the test moves. The loop is turned by hand ({@link
 * FetchLoop#iterate()}), so every step is deterministic.
 */
class FetchLoopTest {

  private static final String ORIGIN = "http://a.example";
  private static final Instant START = Instant.parse("2026-11-24T10:00:00Z");
  private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(1);

  private final Topics topics = Topics.create(new InMemorySchemaRegistryClient());
  private final TopicPartition partition = new TopicPartition(topics.fetchRequests().name(), 0);
  private final TopicPartition statePartition = new TopicPartition(topics.politeness().name(), 0);
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final MockConsumer<byte[], byte[]> stateReader = new MockConsumer<>("earliest");
  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final ScriptedFetcher fetcher = new ScriptedFetcher();
  private final ManualClock clock = new ManualClock(START);
  private FetchLoop loop;
  private long nextOffset;

  @BeforeEach
  void startLoop() {
    startLoop(false);
  }

  /** A loop that reads each origin's tdmrep.json or not. */
  private void startLoop(boolean readsTdmRep) {
    loop =
        new FetchLoop(
            new FetchLoop.Clients(consumer, stateReader, producer),
            topics,
            FetchTier.fetchers(topics),
            fetcher,
            new RobotsPolicy("testbot/1.0", Duration.ofMinutes(30)),
            new FetchLoop.Settings(
                FetchOptions.defaults(0, true),
                8,
                100,
                COMMIT_INTERVAL,
                Duration.ofMinutes(2),
                Duration.ofMinutes(1),
                Duration.ofSeconds(1),
                "fetcher-test",
                readsTdmRep),
            clock,
            new CrawlLog(FetchLoop.SERVICE, new SimpleMeterRegistry()),
            new SimpleMeterRegistry());
    stateReader.updateBeginningOffsets(Map.of(statePartition, 0L));
    stateReader.updateEndOffsets(Map.of(statePartition, 0L));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    loop.subscribe();
    consumer.rebalance(List.of(partition));
  }

  @Test
  void writesAPagesResultAndCommitsItsOffsetOnlyOnceKafkaAcknowledgesIt() {
    request("/page");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    turn();
    fetcher.answer(ORIGIN + "/page", response(200, "<html>hello</html>"));
    turn();

    List<FetchResult> results = written(topics.fetchResults());
    assertThat(results).singleElement().satisfies(r -> assertThat(r.getStatus()).isEqualTo(200));
    clock.advance(COMMIT_INTERVAL);
    turn();
    assertThat(committedOffset()).as("not acknowledged yet: offset 0 still to do").contains(0L);

    producer.flush(); // Kafka acknowledges
    turn();
    clock.advance(COMMIT_INTERVAL);
    turn();
    assertThat(committedOffset()).contains(1L);
  }

  @Test
  void carriesTheRecordedExchangesToTheArchive() {
    request("/page");
    request("/gone");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", recorded(response(404, "no robots")));
    turn();
    fetcher.answer(ORIGIN + "/page", recorded(response(200, "<html>hello</html>")));
    turn();
    fetcher.answer(ORIGIN + "/gone", recorded(response(410, "gone")));
    turn();

    // a page's exchanges travel on its fetch result
    assertThat(written(topics.fetchResults()))
        .singleElement()
        .satisfies(
            result -> {
              assertThat(result.getExchanges()).hasSize(1);
              assertThat(result.getExchanges().get(0).getPeerAddress()).isEqualTo("127.0.0.1");
              assertThat(result.getExchanges().get(0).getRawBody()).isNull();
            });
    // robots.txt's and the 410's, which give no fetch result, on crawl.exchanges with their bodies
    assertThat(written(topics.exchanges()))
        .extracting(ArchivedExchanges::getUrl, ArchivedExchanges::getPurpose, FetchLoopTest::body)
        .containsExactly(
            tuple(ORIGIN + "/robots.txt", ExchangePurpose.ROBOTS, "no robots"),
            tuple(ORIGIN + "/gone", ExchangePurpose.PAGE, "gone"));
    assertThat(written(topics.exchanges()).get(1).getRequestId()).isEqualTo("r-/gone");
  }

  @Test
  void archivesTheHeadBeforeAGetAndACutBody() {
    request("/page", Map.of("head", "optional"));
    request("/big");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    turn();
    fetcher.answer(ORIGIN + "/page", recorded(response(200, "")));
    turn();
    fetcher.answer(ORIGIN + "/page", recorded(response(200, "<html>hello</html>")));
    turn();
    byte[] cut = "the first bytes".getBytes(StandardCharsets.UTF_8);
    fetcher.answer(
        ORIGIN + "/big",
        new FetchAttempt.Failure(
            FetchAttempt.FailureKind.TOO_LARGE,
            "body is over the limit of 15 bytes",
            3,
            List.of(
                new Exchange(
                    ORIGIN + "/big",
                    "GET",
                    "HTTP/1.1",
                    Optional.of("127.0.0.1"),
                    START,
                    List.of(),
                    200,
                    "OK",
                    List.of(new Exchange.Header("Content-Length", "10000")),
                    Optional.of(cut),
                    Optional.of(Exchange.Truncation.LENGTH)))));
    turn();

    assertThat(written(topics.fetchResults())).singleElement();
    List<ArchivedExchanges> archived = written(topics.exchanges());
    assertThat(archived)
        .extracting(ArchivedExchanges::getUrl, ArchivedExchanges::getPurpose)
        .containsExactly(
            tuple(ORIGIN + "/page", ExchangePurpose.HEAD),
            tuple(ORIGIN + "/big", ExchangePurpose.PAGE));
    assertThat(archived.get(0).getRequestId()).isEqualTo("r-/page");
    assertThat(body(archived.get(1))).isEqualTo("the first bytes");
    assertThat(archived.get(1).getExchanges().get(0).getTruncated()).isEqualTo("length");
    assertThat(written(topics.outcomes()))
        .extracting(CrawlOutcome::getUrl, CrawlOutcome::getOutcome)
        .contains(tuple(ORIGIN + "/big", Outcome.TOO_LARGE));
  }

  /** The body of the last exchange archived. */
  private static String body(ArchivedExchanges archived) {
    HttpExchange last = archived.getExchanges().get(archived.getExchanges().size() - 1);
    ByteBuffer body = last.getRawBody().duplicate();
    byte[] bytes = new byte[body.remaining()];
    body.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void aPagesResultCarriesWhatRobotsTxtAndTdmRepStateAboutItsUse() {
    consumer.unsubscribe();
    startLoop(true);
    request("/articles/one");
    turn();
    fetcher.answer(
        ORIGIN + "/robots.txt",
        response(
            200,
            "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /articles/"
                + " search=y\n"));
    turn();
    assertThat(fetcher.calls)
        .as("tdmrep.json is read after robots.txt, before the page")
        .containsExactly(ORIGIN + "/robots.txt", ORIGIN + "/.well-known/tdmrep.json");
    fetcher.answer(
        ORIGIN + "/.well-known/tdmrep.json",
        response(200, "[{\"location\": \"/articles/*\", \"tdm-reservation\": 1}]"));
    turn();
    fetcher.answer(ORIGIN + "/articles/one", response(200, "<html>one</html>"));
    turn();

    FetchResult result = written(topics.fetchResults()).get(0);
    assertThat(result.getUsage()).isNotNull();
    assertThat(result.getUsage().getStatements())
        .extracting(statement -> statement.getSource().name())
        .contains("ROBOTS_TXT_CONTENT_USAGE", "TDMREP_FILE");
    assertThat(result.getUsage().getSummary())
        .containsEntry("tdm", UsagePreference.STATED_DISALLOWED);
  }

  @Test
  void answersAUrlRobotsTxtDisallowsWithoutFetchingIt() {
    request("/private/x");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(200, "User-agent: *\nDisallow: /private/\n"));
    turn();

    assertThat(fetcher.calls).containsExactly(ORIGIN + "/robots.txt");
    assertThat(written(topics.outcomes()))
        .singleElement()
        .satisfies(
            outcome -> {
              assertThat(outcome.getOutcome()).isEqualTo(Outcome.BLOCKED_BY_ROBOTS_TXT);
              assertThat(outcome.getRequestId()).isEqualTo("r-/private/x");
            });
  }

  @Test
  void startsAnOriginsNextRequestItsDelayAfterTheLastEnded() {
    request("/one", Map.of("delay-ms", "1000"));
    request("/two", Map.of("delay-ms", "1000"));
    turn();
    Instant robotsAnswered = fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    runFor(Duration.ofSeconds(2));
    Instant oneAnswered = fetcher.answer(ORIGIN + "/one", response(200, "one"));
    runFor(Duration.ofSeconds(2));

    // a request ends on the next whole millisecond of the clock, and the delay runs from there
    assertThat(fetcher.startedAt(ORIGIN + "/one")).isEqualTo(robotsAnswered.plusMillis(1 + 1000));
    assertThat(fetcher.startedAt(ORIGIN + "/two")).isEqualTo(oneAnswered.plusMillis(1 + 1000));
  }

  @Test
  void defersTheWaitingRequestsOfAnOriginThatAskedToWaitLongerThanTheyMayBeHeld() {
    request("/one");
    request("/two");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    turn();
    Instant answered =
        fetcher.answer(ORIGIN + "/one", response(429, "", Map.of("Retry-After", "3600")));
    turn();
    turn();

    assertThat(fetcher.calls).doesNotContain(ORIGIN + "/two");
    List<CrawlOutcome> outcomes = written(topics.outcomes());
    assertThat(outcomes)
        .extracting(CrawlOutcome::getUrl, CrawlOutcome::getOutcome)
        .containsExactly(
            tuple(ORIGIN + "/one", Outcome.RATE_LIMITED), tuple(ORIGIN + "/two", Outcome.DEFERRED));
    assertThat(outcomes.get(1).getRetryAt())
        .as("Retry-After capped at max-backoff-ms, 10 min")
        .isEqualTo(answered.plusMillis(1).plus(Duration.ofMinutes(10)));
  }

  @Test
  void sendsAnUndecodableRequestToTheDeadLetterTopicAndGoesOn() {
    consumer.addRecord(
        new ConsumerRecord<>(
            partition.topic(),
            0,
            nextOffset++,
            ORIGIN.getBytes(StandardCharsets.UTF_8),
            new byte[] {9, 9, 9}));
    request("/after");
    turn();

    assertThat(written(topics.deadLetters())).hasSize(1);
    assertThat(fetcher.calls).as("the next request goes on").contains(ORIGIN + "/robots.txt");
    producer.flush();
    turn();
    clock.advance(COMMIT_INTERVAL);
    turn();
    assertThat(committedOffset()).as("the dead letter's offset is done").contains(1L);
  }

  @Test
  void startsNoRequestWhileKafkaAcknowledgesNothing() {
    request("/one");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    turn();
    fetcher.answer(ORIGIN + "/one", response(200, "one"));
    turn(); // its result waits for Kafka
    clock.advance(Duration.ofMillis(ResultWriter.ACKNOWLEDGEMENT_STALL_MILLIS + 1));
    request("/two");
    turn();
    turn();
    assertThat(fetcher.calls).doesNotContain(ORIGIN + "/two");

    producer.flush();
    turn();
    turn();
    assertThat(fetcher.calls).contains(ORIGIN + "/two");
  }

  @Test
  void handsAnOriginsPolitenessOverWithItsPartition() {
    request("/one");
    turn();
    fetcher.answer(ORIGIN + "/robots.txt", response(404, ""));
    turn();
    fetcher.answer(ORIGIN + "/one", response(429, "", Map.of("Retry-After", "30")));
    turn();
    producer.flush();
    turn();

    consumer.rebalance(List.of());

    List<PolitenessState> states = written(topics.politeness());
    assertThat(states).isNotEmpty();
    PolitenessState last = states.get(states.size() - 1);
    assertThat(last.getOrigin()).isEqualTo(ORIGIN);
    assertThat(last.getNextRequestAt()).isAfterOrEqualTo(START.plusSeconds(30));
    assertThat(last.getFetcher()).isEqualTo("fetcher-test");
    consumer.rebalance(List.of(partition)); // the mock tells committed offsets to owners only
    assertThat(committedOffset()).as("committed before the partition went").contains(1L);
  }

  @Test
  void goesOnFromThePolitenessStateThePreviousOwnerLeft() {
    consumer.rebalance(List.of());
    PolitenessState state =
        PolitenessState.newBuilder()
            .setOrigin(ORIGIN)
            .setNextRequestAt(START.plusSeconds(20))
            .setBackoffMillis(5_000)
            .setBackoffChangedAt(START)
            .setPatience(5)
            .setFailureStreak(0)
            .setPausedUntil(Instant.EPOCH)
            .setUpdatedAt(START)
            .setFetcher("previous")
            .build();
    stateReader.updateEndOffsets(Map.of(statePartition, 1L));
    stateReader.schedulePollTask(
        () ->
            stateReader.addRecord(
                new ConsumerRecord<>(
                    statePartition.topic(),
                    0,
                    0L,
                    ORIGIN.getBytes(StandardCharsets.UTF_8),
                    topics
                        .politeness()
                        .valueSerde()
                        .serializer()
                        .serialize(statePartition.topic(), state))));
    consumer.rebalance(List.of(partition));
    request("/one");
    turn();
    clock.advance(Duration.ofSeconds(19));
    turn();
    assertThat(fetcher.calls).as("not before the previous owner's next request time").isEmpty();

    clock.advance(Duration.ofSeconds(1));
    turn();
    assertThat(fetcher.calls).containsExactly(ORIGIN + "/robots.txt");
  }

  /**
   * Turns the loop twice, so that what the last turn read or was handed (HTTP answers,
   * acknowledgements) is acted on.
   */
  private void turn() {
    loop.iterate();
    clock.advance(Duration.ofMillis(1));
    loop.iterate();
  }

  /** Turns the loop once per millisecond of the clock, for this long. */
  private void runFor(Duration duration) {
    for (long i = 0; i < duration.toMillis(); i++) {
      loop.iterate();
      clock.advance(Duration.ofMillis(1));
    }
  }

  private void request(String path) {
    request(path, Map.of());
  }

  private void request(String path, Map<String, String> options) {
    FetchRequest request =
        FetchRequest.newBuilder()
            .setUrl(ORIGIN + path)
            .setRequestId("r-" + path)
            .setDepth(1)
            .setAttempt(1)
            .setReleasedAt(clock.instant())
            .setKind(UrlKind.LINK)
            .setOptions(options)
            .build();
    consumer.addRecord(
        new ConsumerRecord<>(
            partition.topic(),
            0,
            nextOffset++,
            ORIGIN.getBytes(StandardCharsets.UTF_8),
            topics
                .fetchRequests()
                .valueSerde()
                .serializer()
                .serialize(partition.topic(), request)));
  }

  private Optional<Long> committedOffset() {
    OffsetAndMetadata committed = consumer.committed(Set.of(partition)).get(partition);
    return Optional.ofNullable(committed).map(OffsetAndMetadata::offset);
  }

  private <V> List<V> written(TopicSpec<String, V> topic) {
    List<V> values = new ArrayList<>();
    for (ProducerRecord<byte[], byte[]> record : producer.history()) {
      if (record.topic().equals(topic.name())) {
        values.add(topic.valueSerde().deserializer().deserialize(topic.name(), record.value()));
      }
    }
    return values;
  }

  private static FetchAttempt.Response response(int status, String body) {
    return response(status, body, Map.of());
  }

  private static FetchAttempt.Response response(
      int status, String body, Map<String, String> headers) {
    return new FetchAttempt.Response(
        status,
        headers,
        body.getBytes(StandardCharsets.UTF_8),
        Optional.of("text/html"),
        Optional.of("UTF-8"),
        3,
        List.of(),
        "");
  }

  /** The response as a fetcher recording exchanges gives it: its one exchange attached. */
  private static FetchAttempt.Response recorded(FetchAttempt.Response response) {
    Exchange exchange =
        new Exchange(
            "http://recorded.example/",
            "GET",
            "HTTP/1.1",
            Optional.of("127.0.0.1"),
            START,
            List.of(new Exchange.Header("User-Agent", "testbot/1.0")),
            response.status(),
            "",
            List.of(new Exchange.Header("Content-Type", "text/html")),
            Optional.empty());
    return new FetchAttempt.Response(
        response.status(),
        response.headers(),
        response.body(),
        response.contentType(),
        response.charset(),
        response.durationMillis(),
        response.redirectChain(),
        response.url(),
        List.of(exchange));
  }

  /** An HTTP fetcher whose answers the test gives, one per URL asked. */
  private final class ScriptedFetcher implements PageFetcher {
    final List<String> calls = new ArrayList<>();
    private final Map<String, Instant> started = new HashMap<>();
    private final Map<String, CompletableFuture<FetchAttempt>> open = new HashMap<>();

    @Override
    public CompletableFuture<FetchAttempt> fetch(Call call) {
      calls.add(call.url());
      started.put(call.url(), clock.instant());
      CompletableFuture<FetchAttempt> answer = new CompletableFuture<>();
      open.put(call.url(), answer);
      return answer;
    }

    /** Answers the request for the URL now; returns when. */
    Instant answer(String url, FetchAttempt attempt) {
      CompletableFuture<FetchAttempt> answer = open.remove(url);
      assertThat(answer).as("a request for %s is running", url).isNotNull();
      answer.complete(attempt);
      return clock.instant();
    }

    Instant startedAt(String url) {
      return started.get(url);
    }

    @Override
    public void close() {}
  }

  /** A clock the test moves. */
  private static final class ManualClock implements InstantSource {
    private Instant now;

    ManualClock(Instant start) {
      this.now = start;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
