package dev.crawler.archive.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.HttpExchange;
import dev.crawler.events.HttpHeader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;

class WarcRecordsTest {

  private static final Instant SENT = Instant.parse("2026-11-26T12:00:00.123Z");
  private static final byte[] PAGE =
      "<html><body><a href=\"/next\">next</a> a compressed page</body></html>"
          .getBytes(StandardCharsets.UTF_8);

  @TempDir Path directory;

  @Test
  void writesRequestResponseAndOutlinksThatReadBackAsSent() throws IOException {
    byte[] compressed = gzip(PAGE);
    HttpExchange exchange =
        exchange(
            "http://a.example/page?x=1",
            200,
            List.of(
                header("Content-Type", "text/html; charset=UTF-8"),
                header("Content-Encoding", "gzip"),
                header("Transfer-Encoding", "chunked")),
            compressed);

    List<Read> read =
        roundTrip(
            new WarcRecords(true)
                .of(coordinates(7), List.of(exchange), Optional.of(ByteBuffer.wrap(PAGE))));

    assertThat(read)
        .extracting(Read::type)
        .containsExactly("warcinfo", "request", "response", "metadata");
    Read request = read.get(1);
    assertThat(request.target()).isEqualTo("http://a.example/page?x=1");
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.requestTarget()).isEqualTo("/page?x=1");
    assertThat(request.http().first("Host")).contains("a.example");
    assertThat(request.http().first("User-Agent")).contains("test-bot/1.0");
    Read response = read.get(2);
    assertThat(response.target()).isEqualTo("http://a.example/page?x=1");
    assertThat(response.date()).isEqualTo(SENT); // WARC 1.1 keeps the milliseconds
    assertThat(response.ip()).contains("127.0.0.1");
    assertThat(response.concurrentTo()).contains(request.id());
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.http().first("Content-Encoding")).contains("gzip");
    assertThat(response.http().first("X-Crawler-Transfer-Encoding")).contains("chunked");
    assertThat(response.http().first("Transfer-Encoding")).isEmpty();
    // the body as the server sent it: compressed, byte for byte
    assertThat(response.body()).isEqualTo(compressed);
    assertThat(response.payloadDigest()).contains(WarcRecords.sha1(compressed).base32());
    assertThat(read.get(3).outlinks()).containsExactly("http://a.example/next");
  }

  @Test
  void resolvesOutlinksAgainstThePageOrItsBase() {
    URI page = URI.create("http://a.example/dir/page.html");
    String origin = "http://a.example";

    assertThat(WarcRecords.resolve(page, origin, " https://b.example/x "))
        .isEqualTo("https://b.example/x");
    assertThat(WarcRecords.resolve(page, origin, "/root?q=1"))
        .isEqualTo("http://a.example/root?q=1");
    assertThat(WarcRecords.resolve(page, origin, "sibling.html"))
        .isEqualTo("http://a.example/dir/sibling.html");
    assertThat(WarcRecords.resolve(page, origin, "../up")).isEqualTo("http://a.example/up");
    assertThat(WarcRecords.resolve(page, origin, "//c.example/y")).isEqualTo("http://c.example/y");
    assertThat(WarcRecords.resolve(page, origin, "HTTP://D.example/"))
        .isEqualTo("HTTP://D.example/");
    // not outlinks: the page itself, other schemes, what is not a URL
    assertThat(WarcRecords.resolve(page, origin, "#top")).isEmpty();
    assertThat(WarcRecords.resolve(page, origin, "")).isEmpty();
    assertThat(WarcRecords.resolve(page, origin, "mailto:a@a.example")).isEmpty();
    assertThat(WarcRecords.resolve(page, origin, "javascript:void(0)")).isEmpty();
    assertThat(WarcRecords.resolve(page, origin, "a b|c")).isEmpty();
  }

  @Test
  void honoursTheBaseElementOfAPage() throws IOException {
    byte[] html =
        "<html><head><base href=\"http://cdn.example/assets/\"></head><body><a href=\"x\">x</a><a href=\"/y\">y</a></body></html>"
            .getBytes(StandardCharsets.UTF_8);
    HttpExchange exchange =
        exchange("http://a.example/p", 200, List.of(header("Content-Type", "text/html")), html);

    List<Read> read =
        roundTrip(
            new WarcRecords(true)
                .of(coordinates(9), List.of(exchange), Optional.of(ByteBuffer.wrap(html))));

    assertThat(read.get(3).outlinks())
        .containsExactly("http://cdn.example/assets/x", "http://cdn.example/y");
  }

  @Test
  void derivesEveryRecordIdFromTheKafkaCoordinates() {
    HttpExchange exchange =
        exchange("http://a.example/", 200, List.of(header("Content-Type", "text/plain")), PAGE);

    List<WarcRecord> first =
        new WarcRecords(false).of(coordinates(3), List.of(exchange), Optional.empty());
    List<WarcRecord> again =
        new WarcRecords(false).of(coordinates(3), List.of(exchange), Optional.empty());
    List<WarcRecord> other =
        new WarcRecords(false).of(coordinates(4), List.of(exchange), Optional.empty());

    assertThat(first)
        .extracting(WarcRecord::id)
        .isEqualTo(again.stream().map(WarcRecord::id).toList());
    assertThat(first.get(0).id()).isNotEqualTo(other.get(0).id());
  }

  @Test
  void a304IsARevisitOfTheServerNotModifiedProfile() throws IOException {
    HttpExchange exchange =
        exchange("http://a.example/", 304, List.of(header("ETag", "\"v1\"")), new byte[0]);

    List<Read> read =
        roundTrip(new WarcRecords(true).of(coordinates(1), List.of(exchange), Optional.empty()));

    Read revisit = read.get(2);
    assertThat(revisit.type()).isEqualTo("revisit");
    assertThat(revisit.profile()).contains(WarcRevisit.SERVER_NOT_MODIFIED_1_1);
    assertThat(revisit.status()).isEqualTo(304);
  }

  @Test
  void theSamePayloadAgainIsARevisitOfTheRecordArchivedBefore() throws IOException {
    WarcRecords records = new WarcRecords(false);
    HttpExchange exchange =
        exchange("http://a.example/", 200, List.of(header("Content-Type", "text/plain")), PAGE);
    List<WarcRecord> written =
        new ArrayList<>(records.of(coordinates(1), List.of(exchange), Optional.empty()));
    written.addAll(records.of(coordinates(2), List.of(exchange), Optional.empty()));

    List<Read> read = roundTrip(written);

    Read original = read.get(2);
    Read revisit = read.get(4);
    assertThat(revisit.type()).isEqualTo("revisit");
    assertThat(revisit.profile()).contains(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1);
    assertThat(revisit.refersTo()).contains(original.id());
    assertThat(revisit.refersToTarget()).contains(URI.create(original.target()));
  }

  @Test
  void keepsTheRedirectsFollowedBeforeTheResponse() throws IOException {
    HttpExchange hop =
        exchange("http://a.example/old", 301, List.of(header("Location", "/new")), new byte[0]);
    HttpExchange page =
        exchange("http://a.example/new", 200, List.of(header("Content-Type", "text/plain")), null);

    List<Read> read =
        roundTrip(
            new WarcRecords(false)
                .of(coordinates(5), List.of(hop, page), Optional.of(ByteBuffer.wrap(PAGE))));

    assertThat(read).hasSize(5);
    assertThat(read.get(2).status()).isEqualTo(301);
    Read last = read.get(4);
    assertThat(last.target()).isEqualTo("http://a.example/new");
    // no content coding: the body the fetch result carries is the body as received
    assertThat(last.body()).isEqualTo(PAGE);
  }

  @Test
  void anExchangeOfCrawlExchangesReplaysItsOwnBody() throws IOException {
    byte[] notFound = "<html><body>no page here</body></html>".getBytes(StandardCharsets.UTF_8);
    HttpExchange exchange =
        exchange(
            "http://a.example/missing",
            404,
            List.of(
                header("Content-Type", "text/html"),
                header("Content-Length", Integer.toString(notFound.length))),
            notFound);

    List<Read> read =
        roundTrip(new WarcRecords(false).of(coordinates(6), List.of(exchange), Optional.empty()));

    Read response = read.get(2);
    assertThat(response.status()).isEqualTo(404);
    assertThat(response.body()).isEqualTo(notFound);
    assertThat(response.http().first("Content-Length")).contains("" + notFound.length);
    assertThat(response.payloadDigest()).contains(WarcRecords.sha1(notFound).base32());
    assertThat(response.truncated()).isEqualTo(WarcTruncationReason.NOT_TRUNCATED);
    assertThat(response.ip()).contains("127.0.0.1");
  }

  @Test
  void aBodyCutAtTheLimitIsMarkedTruncatedAndNeverARevisit() throws IOException {
    byte[] cut = "the first bytes of a longer body".getBytes(StandardCharsets.UTF_8);
    HttpExchange exchange =
        exchange(
            "http://a.example/big",
            200,
            List.of(header("Content-Type", "text/plain"), header("Content-Length", "10000")),
            cut);
    exchange.setTruncated("length");
    WarcRecords records = new WarcRecords(false);
    List<WarcRecord> written =
        new ArrayList<>(records.of(coordinates(1), List.of(exchange), Optional.empty()));
    written.addAll(records.of(coordinates(2), List.of(exchange), Optional.empty()));

    List<Read> read = roundTrip(written);

    for (Read response : List.of(read.get(2), read.get(4))) {
      assertThat(response.type()).isEqualTo("response");
      assertThat(response.truncated()).isEqualTo(WarcTruncationReason.LENGTH);
      assertThat(response.body()).isEqualTo(cut);
      assertThat(response.http().first("Content-Length")).contains("" + cut.length);
      assertThat(response.http().first("X-Crawler-Content-Length")).contains("10000");
      assertThat(response.payloadDigest()).contains(WarcRecords.sha1(cut).base32());
    }
  }

  @ParameterizedTest
  @CsvSource({
    "length, LENGTH",
    "time, TIME",
    "disconnect, DISCONNECT",
    "unspecified, UNSPECIFIED",
    "a reason WARC does not name, UNSPECIFIED"
  })
  void namesTheTruncationAsWarcDoes(String truncated, WarcTruncationReason reason) {
    HttpExchange exchange =
        exchange("http://a.example/", 200, List.of(), "x".getBytes(StandardCharsets.UTF_8));
    exchange.setTruncated(truncated);

    assertThat(WarcRecords.truncation(exchange)).contains(reason);
  }

  @Test
  void aWholeBodyIsNotTruncated() {
    HttpExchange exchange = exchange("http://a.example/", 200, List.of(), PAGE);

    assertThat(WarcRecords.truncation(exchange)).isEmpty();
  }

  /** What a record read back holds, taken while the reader is on it (records stream). */
  record Read(
      String type,
      URI id,
      String target,
      Instant date,
      Optional<String> ip,
      List<URI> concurrentTo,
      Optional<String> payloadDigest,
      Optional<URI> profile,
      Optional<URI> refersTo,
      Optional<URI> refersToTarget,
      int status,
      MessageHeaders http,
      String method,
      String requestTarget,
      byte[] body,
      List<String> outlinks,
      WarcTruncationReason truncated) {}

  private List<Read> roundTrip(List<WarcRecord> records) throws IOException {
    ArchiveFile file = ArchiveFile.open(directory, "test", 0, "unit", SENT);
    file.write(records);
    file.sync(Map.of("crawl.fetch-results-0", 1L));
    file.finish();
    List<Read> read = new ArrayList<>();
    try (WarcReader reader = new WarcReader(directory.resolve(file.name()))) {
      for (WarcRecord record : reader) {
        String target = "";
        Optional<String> ip = Optional.empty();
        List<URI> concurrent = List.of();
        Optional<String> payload = Optional.empty();
        Optional<URI> profile = Optional.empty();
        Optional<URI> refersTo = Optional.empty();
        Optional<URI> refersToTarget = Optional.empty();
        int status = 0;
        MessageHeaders http = MessageHeaders.of();
        String method = "";
        String requestTarget = "";
        byte[] body = new byte[0];
        List<String> outlinks = List.of();
        if (record instanceof WarcCaptureRecord capture) {
          target = capture.target();
          ip = capture.ipAddress().map(InetAddress::getHostAddress);
          concurrent = capture.concurrentTo();
          payload = capture.payloadDigest().map(d -> d.base32());
        }
        if (record instanceof WarcResponse response) {
          status = response.http().status();
          http = response.http().headers();
          body = response.http().body().stream().readAllBytes();
        } else if (record instanceof WarcRevisit revisit) {
          profile = Optional.of(revisit.profile());
          refersTo = revisit.refersTo();
          refersToTarget = revisit.refersToTargetURI();
          status = revisit.http().status();
          http = revisit.http().headers();
        } else if (record instanceof WarcRequest request) {
          http = request.http().headers();
          method = request.http().method();
          requestTarget = request.http().target();
        } else if (record instanceof WarcMetadata metadata) {
          outlinks = metadata.fields().all("outlink");
        }
        read.add(
            new Read(
                record.type(),
                record.id(),
                target,
                record.date(),
                ip,
                concurrent,
                payload,
                profile,
                refersTo,
                refersToTarget,
                status,
                http,
                method,
                requestTarget,
                body,
                outlinks,
                record.truncated()));
      }
    }
    return read;
  }

  private static WarcRecords.Coordinates coordinates(long offset) {
    return new WarcRecords.Coordinates("crawl.fetch-results", 0, offset);
  }

  private static HttpExchange exchange(
      String url, int status, List<HttpHeader> headers, byte[] body) {
    return HttpExchange.newBuilder()
        .setUrl(url)
        .setMethod("GET")
        .setHttpVersion("HTTP/1.1")
        .setPeerAddress("127.0.0.1")
        .setStartedAt(SENT)
        .setRequestHeaders(
            List.of(header("User-Agent", "test-bot/1.0"), header("Accept-Encoding", "gzip")))
        .setStatus(status)
        .setReason(status == 200 ? "OK" : "")
        .setResponseHeaders(headers)
        .setRawBody(body == null ? null : ByteBuffer.wrap(body))
        .build();
  }

  private static HttpHeader header(String name, String value) {
    return new HttpHeader(name, value);
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }
}
