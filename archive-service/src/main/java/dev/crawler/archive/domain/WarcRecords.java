package dev.crawler.archive.domain;

import dev.crawler.common.hash.Sha1;
import dev.crawler.events.HttpExchange;
import dev.crawler.events.HttpHeader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The WARC 1.1 records of HTTP exchanges (ISO 28500:2017), made with jwarc.
 *
 * <ul>
 *   <li>Each exchange is a {@code request} record (the request line and the fields as sent) and a
 *       {@code response} record (the status line and the fields as received, then the body as
 *       received: compressed when the server compressed it), concurrent to each other, with {@code
 *       WARC-Target-URI}, {@code WARC-Date} (when the request was sent), {@code WARC-IP-Address},
 *       and SHA-1 {@code WARC-Block-Digest} and {@code WARC-Payload-Digest} in base 32, as WARC
 *       tools expect.
 *   <li>A body that came chunked is stored whole: its {@code Transfer-Encoding} field is kept as
 *       {@code X-Crawler-Transfer-Encoding} and a {@code Content-Length} of the stored body added
 *       (the original, when there was one and it differs, as {@code X-Crawler-Content-Length}), so
 *       a reader of the record finds the body as the server sent it, byte for byte.
 *   <li>A body the fetcher did not read whole (cut at its size limit, out of time, the connection
 *       broken) is stored as far as it was read, its response record marked {@code WARC-Truncated}
 *       with the reason ({@code length}, {@code time}, {@code disconnect}, {@code unspecified}),
 *       its {@code Content-Length} that of the stored part.
 *   <li>A 304 is a {@code revisit} record of the server-not-modified profile; a response whose
 *       payload is the one last archived for the same URL, a {@code revisit} of the
 *       identical-payload-digest profile referring to that record (never for a truncated body).
 *   <li>An HTML response's links go in a {@code metadata} record ({@code outlink: URL} fields),
 *       when asked.
 * </ul>
 *
 * <p>Every record's {@code WARC-Record-ID} is derived from where the exchange came from in Kafka
 * (topic, partition, offset, and the record's place among those of the message): the same message
 * archived twice gives records with the same ids, so a duplicate is detectable. Not thread-safe
 * (the identical-payload memory): one per writer.
 */
public final class WarcRecords {

  /** Where a message came from in Kafka: what the records' ids are derived from. */
  public record Coordinates(String topic, int partition, long offset) {

    /** The id of the {@code index}-th record made from the message at these coordinates. */
    public UUID recordId(int index) {
      return UUID.nameUUIDFromBytes(
          (topic + "/" + partition + "/" + offset + "/" + index).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The payloads last archived per URL, for identical-payload revisits. */
  private final Map<String, Archived> lastPayloads =
      new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Archived> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  private static final int MAX_REMEMBERED = 100_000;

  private record Archived(String payloadDigest, UUID recordId, Instant date) {}

  private final boolean outlinks;

  /**
   * @param outlinks whether HTML responses get a metadata record of their outlinks
   */
  public WarcRecords(boolean outlinks) {
    this.outlinks = outlinks;
  }

  /** The {@code warcinfo} record that opens a file. */
  public static Warcinfo warcinfo(String fileName, String instance, Instant date) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    fields.put("software", List.of("kafka-crawler archive writer (jwarc)"));
    fields.put("format", List.of("WARC File Format 1.1"));
    fields.put(
        "conformsTo",
        List.of("https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"));
    fields.put("hostname", List.of(instance));
    return new Warcinfo.Builder()
        .version(MessageVersion.WARC_1_1)
        .recordId(UUID.nameUUIDFromBytes(fileName.getBytes(StandardCharsets.UTF_8)))
        .date(date)
        .filename(fileName)
        .fields(fields)
        .build();
  }

  /**
   * The records of a fetch's exchanges, in order: for each, its request and its response (or
   * revisit), and after the last one its outlinks when it is HTML.
   *
   * @param exchanges the fetch's exchanges, the redirects followed first
   * @param decodedBody the last exchange's decoded body, which is its body as received when the
   *     exchange carries none of its own (a fetch result's page without content coding); empty when
   *     every exchange carries its own (the exchanges of crawl.exchanges)
   */
  public List<WarcRecord> of(
      Coordinates from, List<HttpExchange> exchanges, Optional<ByteBuffer> decodedBody) {
    List<WarcRecord> records = new ArrayList<>(exchanges.size() * 2 + 1);
    int index = 0;
    for (int i = 0; i < exchanges.size(); i++) {
      HttpExchange exchange = exchanges.get(i);
      boolean isLast = i == exchanges.size() - 1;
      byte[] body =
          exchange.getRawBody() != null
              ? bytes(exchange.getRawBody())
              : isLast && decodedBody.isPresent() ? bytes(decodedBody.get()) : new byte[0];
      UUID requestId = from.recordId(index++);
      UUID responseId = from.recordId(index++);
      records.add(request(exchange, requestId, responseId));
      records.add(response(exchange, body, responseId, requestId));
      if (isLast && outlinks && isHtml(exchange) && exchange.getStatus() / 100 == 2) {
        byte[] decoded = decodedBody.map(WarcRecords::bytes).orElse(body);
        metadata(exchange, decoded, from.recordId(index++), responseId).ifPresent(records::add);
      }
    }
    return records;
  }

  private static WarcRequest request(HttpExchange exchange, UUID id, UUID responseId) {
    URI uri = URI.create(exchange.getUrl());
    StringBuilder head = new StringBuilder();
    String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      target += "?" + uri.getRawQuery();
    }
    head.append(exchange.getMethod())
        .append(' ')
        .append(target)
        .append(' ')
        .append(requestVersion(exchange.getHttpVersion()))
        .append("\r\n");
    boolean hasHost = false;
    for (HttpHeader header : exchange.getRequestHeaders()) {
      hasHost |= header.getName().equalsIgnoreCase("Host");
    }
    if (!hasHost) {
      // the Host field is written by the HTTP client itself, below the fields it reports
      head.append("Host: ").append(uri.getRawAuthority()).append("\r\n");
    }
    for (HttpHeader header : exchange.getRequestHeaders()) {
      head.append(header.getName()).append(": ").append(header.getValue()).append("\r\n");
    }
    head.append("\r\n");
    byte[] block = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    WarcRequest.Builder builder =
        new WarcRequest.Builder(uri)
            .version(MessageVersion.WARC_1_1)
            .recordId(id)
            .date(exchange.getStartedAt())
            .concurrentTo(urn(responseId))
            .blockDigest(sha1(block))
            .body(MediaType.HTTP_REQUEST, block);
    peer(exchange).ifPresent(builder::ipAddress);
    return builder.build();
  }

  private WarcRecord response(HttpExchange exchange, byte[] body, UUID id, UUID requestId) {
    byte[] head = responseHead(exchange, body.length);
    byte[] block = concat(head, body);
    URI uri = URI.create(exchange.getUrl());
    WarcDigest payload = sha1(body);
    Optional<WarcTruncationReason> truncated = truncation(exchange);
    if (exchange.getStatus() == 304) {
      WarcRevisit.Builder revisit =
          new WarcRevisit.Builder(uri, WarcRevisit.SERVER_NOT_MODIFIED_1_1)
              .version(MessageVersion.WARC_1_1)
              .recordId(id)
              .date(exchange.getStartedAt())
              .concurrentTo(urn(requestId))
              .blockDigest(sha1(head))
              .body(MediaType.HTTP_RESPONSE, head);
      peer(exchange).ifPresent(revisit::ipAddress);
      return revisit.build();
    }
    Archived last = truncated.isPresent() ? null : lastPayloads.get(exchange.getUrl());
    if (last != null && last.payloadDigest().equals(payload.toString()) && body.length > 0) {
      // the same payload as the record archived last for this URL: its headers, and a reference
      WarcRevisit.Builder revisit =
          new WarcRevisit.Builder(uri, WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
              .version(MessageVersion.WARC_1_1)
              .recordId(id)
              .date(exchange.getStartedAt())
              .concurrentTo(urn(requestId))
              .refersTo(last.recordId(), uri, last.date())
              .payloadDigest(payload)
              .blockDigest(sha1(head))
              .body(MediaType.HTTP_RESPONSE, head);
      peer(exchange).ifPresent(revisit::ipAddress);
      return revisit.build();
    }
    if (exchange.getStatus() / 100 == 2 && truncated.isEmpty()) {
      lastPayloads.put(
          exchange.getUrl(), new Archived(payload.toString(), id, exchange.getStartedAt()));
    }
    WarcResponse.Builder response =
        new WarcResponse.Builder(uri)
            .version(MessageVersion.WARC_1_1)
            .recordId(id)
            .date(exchange.getStartedAt())
            .concurrentTo(urn(requestId))
            .payloadDigest(payload)
            .blockDigest(sha1(block))
            .body(MediaType.HTTP_RESPONSE, block);
    truncated.ifPresent(response::truncated);
    peer(exchange).ifPresent(response::ipAddress);
    return response.build();
  }

  /**
   * The status line and fields as received, but for a body stored whole: the chunked coding renamed
   * and the stored length given.
   */
  static byte[] responseHead(HttpExchange exchange, int bodyLength) {
    StringBuilder head = new StringBuilder();
    head.append(responseVersion(exchange.getHttpVersion()))
        .append(' ')
        .append(exchange.getStatus());
    if (!exchange.getReason().isEmpty()) {
      head.append(' ').append(exchange.getReason());
    }
    head.append("\r\n");
    String contentLength = null;
    boolean chunked = false;
    for (HttpHeader header : exchange.getResponseHeaders()) {
      String name = header.getName();
      if (name.equalsIgnoreCase("Transfer-Encoding")) {
        chunked = true;
        head.append("X-Crawler-Transfer-Encoding: ").append(header.getValue()).append("\r\n");
      } else if (name.equalsIgnoreCase("Content-Length")) {
        contentLength = header.getValue().strip();
      } else {
        head.append(name).append(": ").append(header.getValue()).append("\r\n");
      }
    }
    if (contentLength != null && !contentLength.equals(Integer.toString(bodyLength))) {
      head.append("X-Crawler-Content-Length: ").append(contentLength).append("\r\n");
    }
    if (contentLength != null || chunked || bodyLength > 0) {
      head.append("Content-Length: ").append(bodyLength).append("\r\n");
    }
    head.append("\r\n");
    return head.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static Optional<WarcMetadata> metadata(
      HttpExchange exchange, byte[] html, UUID id, UUID responseId) {
    Document document = Jsoup.parse(new String(html, charsetOf(exchange)), exchange.getUrl());
    URI base;
    try {
      Element baseElement = document.selectFirst("base[href]");
      base = URI.create(exchange.getUrl());
      if (baseElement != null) {
        base = base.resolve(baseElement.attr("href").strip());
      }
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    String origin = base.getScheme() + "://" + base.getRawAuthority();
    Set<String> links = new LinkedHashSet<>();
    for (Element element : document.select("a[href], area[href]")) {
      links.add(resolve(base, origin, element.attr("href")));
    }
    for (Element element : document.select("frame[src], iframe[src]")) {
      links.add(resolve(base, origin, element.attr("src")));
    }
    links.removeIf(String::isEmpty);
    if (links.isEmpty()) {
      return Optional.empty();
    }
    Map<String, List<String>> fields = new LinkedHashMap<>();
    fields.put("outlink", new ArrayList<>(links));
    return Optional.of(
        new WarcMetadata.Builder()
            .version(MessageVersion.WARC_1_1)
            .recordId(id)
            .targetURI(exchange.getUrl())
            .date(exchange.getStartedAt())
            .concurrentTo(urn(responseId))
            .fields(fields)
            .build());
  }

  private static boolean isHtml(HttpExchange exchange) {
    for (HttpHeader header : exchange.getResponseHeaders()) {
      if (header.getName().equalsIgnoreCase("Content-Type")) {
        String type = header.getValue().toLowerCase(Locale.ROOT);
        return type.startsWith("text/html") || type.startsWith("application/xhtml+xml");
      }
    }
    return false;
  }

  private static Charset charsetOf(HttpExchange exchange) {
    for (HttpHeader header : exchange.getResponseHeaders()) {
      if (header.getName().equalsIgnoreCase("Content-Type")) {
        int at = header.getValue().toLowerCase(Locale.ROOT).indexOf("charset=");
        if (at >= 0) {
          String name = header.getValue().substring(at + 8).replace("\"", "").strip();
          try {
            return Charset.forName(name);
          } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
          }
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  /** HTTP/2's exchanges are written with the HTTP/1.1 syntax WARC readers parse. */
  private static String responseVersion(String version) {
    return version.startsWith("HTTP/1.") ? version : "HTTP/1.1";
  }

  private static String requestVersion(String version) {
    return responseVersion(version);
  }

  /**
   * Why the exchange's body is not whole, as WARC 1.1 names it; a reason it does not name is {@code
   * unspecified}.
   */
  static Optional<WarcTruncationReason> truncation(HttpExchange exchange) {
    String reason = exchange.getTruncated();
    if (reason == null || reason.isBlank()) {
      return Optional.empty();
    }
    return switch (reason.strip().toLowerCase(Locale.ROOT)) {
      case "length" -> Optional.of(WarcTruncationReason.LENGTH);
      case "time" -> Optional.of(WarcTruncationReason.TIME);
      case "disconnect" -> Optional.of(WarcTruncationReason.DISCONNECT);
      default -> Optional.of(WarcTruncationReason.UNSPECIFIED);
    };
  }

  private static Optional<InetAddress> peer(HttpExchange exchange) {
    if (exchange.getPeerAddress() == null) {
      return Optional.empty();
    }
    try {
      // a literal address: parsed, never looked up
      return Optional.of(InetAddress.getByName(exchange.getPeerAddress()));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  static URI urn(UUID id) {
    return URI.create("urn:uuid:" + id);
  }

  static WarcDigest sha1(byte[] bytes) {
    MessageDigest digest = Sha1.newDigest();
    digest.update(bytes);
    return new WarcDigest(digest);
  }

  /**
   * The absolute URL of a link of a page at {@code base}: most links are absolute or from the root,
   * and are made so without parsing (jsoup's {@code absUrl} runs a regular expression per link,
   * which was a third of the archive writer's CPU); the others are resolved by {@link URI}.
   */
  static String resolve(URI base, String origin, String href) {
    String link = href.strip();
    if (link.startsWith("http://") || link.startsWith("https://")) {
      return link;
    }
    if (link.startsWith("/") && !link.startsWith("//")) {
      return origin + link;
    }
    if (link.startsWith("#") || link.isEmpty()) {
      return "";
    }
    try {
      URI resolved = base.resolve(link);
      String scheme = resolved.getScheme();
      return scheme != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
          ? resolved.toString()
          : "";
    } catch (IllegalArgumentException e) {
      return ""; // not a URL: no outlink
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] bytes = new byte[copy.remaining()];
    copy.get(bytes);
    return bytes;
  }

  private static byte[] concat(byte[] head, byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + body.length);
    try {
      out.write(head);
      out.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
