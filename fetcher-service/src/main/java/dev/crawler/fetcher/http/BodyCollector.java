package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Reads a response's raw body within the fetcher's limits: up to the size limit, the request
 * aborted beyond it; the body's buffer reserved in the {@link BodyBudget} as it grows, the request
 * aborted when the budget has no room, and released when the response ends. A 2xx whose metadata
 * the call's filters reject is aborted before its body is read. When exchanges are recorded for the
 * archive, a body over the limit is kept up to the limit (one announced over it by its
 * Content-Length is read that far, no further), and the address the response came from is noted as
 * it begins. What the ended response makes of the fetch is the subclass's ({@link
 * #completed(Result)}).
 */
abstract class BodyCollector implements Response.Listener {

  /** The body buffer of a response without a Content-Length, before it grows. */
  private static final int INITIAL_BODY_BYTES = 16 * 1024;

  /**
   * The most a Content-Length reserves before the bytes come: a server that announces a large body
   * and sends it slowly, or never, holds no more than this per connection; a larger one grows.
   */
  private static final int MAX_PRESIZED_BODY_BYTES = 256 * 1024;

  final Call call;
  private final long maxBodyBytes;
  private final BodyBudget bodies;
  private final boolean recordsExchanges;

  /** The IP address the response came from, noted as it began. */
  private Optional<String> peerAddress = Optional.empty();

  /** The body so far: sized by Content-Length when there is one, so it is usually written once. */
  private byte[] body = new byte[INITIAL_BODY_BYTES];

  private int bodyLength;

  /** The bytes of the body's buffer beyond its first, reserved in the budget. */
  private long reserved;

  /**
   * @param maxBodyBytes the largest body read
   * @param bodies the bytes the bodies of all requests may hold at once
   * @param recordsExchanges whether the exchange is recorded for the archive: a body over the limit
   *     is then kept up to the limit, and the peer's address noted
   */
  BodyCollector(Call call, long maxBodyBytes, BodyBudget bodies, boolean recordsExchanges) {
    this.call = call;
    this.maxBodyBytes = maxBodyBytes;
    this.bodies = bodies;
    this.recordsExchanges = recordsExchanges;
  }

  /** What the ended response makes of the fetch; the body's reservation is released by then. */
  abstract void completed(Result result);

  @Override
  public final void onBegin(Response response) {
    if (recordsExchanges) {
      // a connection closed by the end of its body (no Content-Length) no longer tells it
      peerAddress = Responses.peerAddress(response.getRequest());
    }
  }

  @Override
  public final void onHeaders(Response response) {
    long length = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
    if (length > maxBodyBytes && !call.isHead() && !recordsExchanges) {
      response.abort(
          new Failures.AbortedException(
              FailureKind.TOO_LARGE,
              "Content-Length " + length + " is over the limit of " + maxBodyBytes + " bytes"));
      return;
    }
    if (length > body.length && length <= maxBodyBytes && !call.isHead()) {
      int size = (int) Math.min(length, MAX_PRESIZED_BODY_BYTES);
      if (!reserve(response, size)) {
        return;
      }
      body = new byte[size];
    }
    FetchOptions filters = call.metadataFilters();
    int status = response.getStatus();
    if (filters != null && status >= 200 && status < 300) {
      String mediaType =
          Responses.mediaType(response.getHeaders().get(HttpHeader.CONTENT_TYPE)).orElse(null);
      if (!filters.isAcceptedMetadata(mediaType, length)) {
        response.abort(
            new Failures.AbortedException(
                FailureKind.REJECTED_METADATA,
                "Content-Type "
                    + mediaType
                    + ", Content-Length "
                    + (length < 0 ? "unknown" : length)));
      }
    }
  }

  @Override
  public final void onContent(Response response, ByteBuffer content) {
    long room = maxBodyBytes - bodyLength;
    if (content.remaining() <= room) {
      take(response, content, content.remaining());
      return;
    }
    // over the limit: the archive keeps the body up to it
    if (recordsExchanges && room > 0 && !take(response, content, (int) room)) {
      return; // aborted: the budget had no room
    }
    response.abort(
        new Failures.AbortedException(
            FailureKind.TOO_LARGE, "body is over the limit of " + maxBodyBytes + " bytes"));
  }

  /**
   * Appends {@code size} bytes of {@code content} to the body, its buffer grown within the limit;
   * false when the budget has no room for the buffer (the request is aborted).
   */
  private boolean take(Response response, ByteBuffer content, int size) {
    if (bodyLength + size > body.length) {
      // no or a wrong Content-Length (a compressed body is decoded on the way):
      // grow, within the limit
      long grown = Math.min(maxBodyBytes, Math.max(bodyLength + size, 2L * body.length));
      int length = (int) Math.min(grown, Integer.MAX_VALUE - 8);
      if (!reserve(response, length)) {
        return false;
      }
      body = Arrays.copyOf(body, length);
    }
    content.get(body, bodyLength, size);
    bodyLength += size;
    return true;
  }

  @Override
  public final void onComplete(Result result) {
    bodies.release(reserved);
    reserved = 0;
    completed(result);
  }

  /** The body read, in a buffer of its own length: the one read into when it is full. */
  final byte[] body() {
    return bodyLength == body.length ? body : Arrays.copyOf(body, bodyLength);
  }

  /** The IP address the response came from, when exchanges are recorded and Jetty told it. */
  final Optional<String> peerAddress() {
    return peerAddress;
  }

  /** A copy of the body read. */
  final byte[] copyOfBody() {
    return Arrays.copyOf(body, bodyLength);
  }

  /** Whether {@code bytes} are the body read, byte for byte. */
  final boolean isBody(byte[] bytes) {
    return bytes.length == bodyLength && Arrays.equals(bytes, 0, bodyLength, body, 0, bodyLength);
  }

  /**
   * Reserves what a buffer of {@code length} takes beyond the one held; aborts the request when the
   * budget has no room.
   */
  private boolean reserve(Response response, int length) {
    long wanted = Math.max(0, (long) length - INITIAL_BODY_BYTES) - reserved;
    if (wanted <= 0) {
      return true;
    }
    if (!bodies.tryReserve(wanted)) {
      response.abort(
          new Failures.AbortedException(
              FailureKind.BUDGET_SPENT,
              "the fetcher holds "
                  + bodies.used()
                  + " bytes of bodies, its budget of "
                  + bodies.capacity()));
      return false;
    }
    reserved += wanted;
    return true;
  }
}
