package dev.crawler.fetcher.http;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.SiteAccess;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.client.Connection;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MimeTypes;
import org.jspecify.annotations.Nullable;

/**
 * What the fetcher reads off a response besides its body: the headers a fetch attempt reports, a
 * redirect's target, the media type and charset, and the exchange as the archive records it.
 * Whatever is reported or recorded has its secrets redacted ({@link Redaction}).
 */
final class Responses {

  private Responses() {}

  /** The response's headers as a fetch attempt reports them: repeated ones joined, redacted. */
  static Map<String, String> headers(Response response) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (HttpField field : response.getHeaders()) {
      headers.merge(
          field.getName(),
          Redaction.received(field.getName(), field.getValue()),
          (first, second) -> first + ", " + second);
    }
    return headers;
  }

  /** The normalized target of a 3xx to the request of {@code url}, when it names a usable one. */
  static Optional<String> redirectTarget(String url, Response response) {
    int status = response.getStatus();
    if (status < 300 || status >= 400 || status == 304) {
      return Optional.empty();
    }
    return Optional.ofNullable(response.getHeaders().get(HttpHeader.LOCATION))
        .flatMap(location -> UrlNormalizer.resolve(url, location))
        .flatMap(UrlNormalizer::tryNormalize);
  }

  /** The media type a Content-Type names, lower case and without its parameters. */
  static Optional<String> mediaType(@Nullable String contentType) {
    return Optional.ofNullable(contentType)
        .map(MimeTypes::getContentTypeWithoutCharset)
        .map(type -> type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT))
        .filter(type -> !type.isEmpty());
  }

  /** The charset a Content-Type names. */
  static Optional<String> charset(@Nullable String contentType) {
    return Optional.ofNullable(contentType).map(MimeTypes::getCharsetFromContentType);
  }

  /**
   * The exchange of a request and its response, as sent and received.
   *
   * @param url the request's URL
   * @param peerAddress the IP address the response came from, noted as it began
   * @param sentAt when the request was sent, in epoch milliseconds
   * @param access the site's access options: the headers they mark as credentials are redacted
   * @param rawBody the body as received, when it is recorded
   * @param truncated why the body recorded is not whole, when it is not
   */
  static Exchange exchange(
      String url,
      Response response,
      Optional<String> peerAddress,
      long sentAt,
      SiteAccess access,
      Optional<byte[]> rawBody,
      Optional<Exchange.Truncation> truncated) {
    Request request = response.getRequest();
    List<Exchange.Header> sent = new ArrayList<>();
    for (HttpField field : request.getHeaders()) {
      sent.add(
          new Exchange.Header(
              field.getName(), Redaction.sent(field.getName(), field.getValue(), access)));
    }
    List<Exchange.Header> received = new ArrayList<>();
    for (HttpField field : response.getHeaders()) {
      received.add(
          new Exchange.Header(
              field.getName(), Redaction.received(field.getName(), field.getValue())));
    }
    return new Exchange(
        url,
        request.getMethod(),
        response.getVersion().asString(),
        peerAddress.or(() -> peerAddress(request)),
        Instant.ofEpochMilli(sentAt),
        sent,
        response.getStatus(),
        response.getReason() == null ? "" : response.getReason(),
        received,
        rawBody,
        truncated);
  }

  /**
   * The IP address a request's connection went to, when Jetty tells it: not once the connection is
   * closed.
   */
  static Optional<String> peerAddress(Request request) {
    Connection connection = request.getConnection();
    if (connection != null
        && connection.getRemoteSocketAddress() instanceof InetSocketAddress address
        && address.getAddress() != null) {
      return Optional.of(address.getAddress().getHostAddress());
    }
    return Optional.empty();
  }
}
