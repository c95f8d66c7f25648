package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpException;

/** How a failed request is told: its kind, and a description in words without Jetty's dumps. */
final class Failures {

  private Failures() {}

  static FailureKind kindOf(Throwable failure, boolean hadResponse) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof AbortedException aborted) {
        return aborted.kind;
      }
      if (cause instanceof GuardedAddressResolver.AddressDeniedException) {
        return FailureKind.ADDRESS_DENIED;
      }
      if (cause instanceof TimeoutException || cause instanceof SocketTimeoutException) {
        return FailureKind.TIMEOUT;
      }
      if (cause instanceof ConnectException
          || cause instanceof UnknownHostException
          || cause instanceof UnresolvedAddressException
          || cause instanceof NoRouteToHostException) {
        return FailureKind.CONNECT_FAILED;
      }
      if (cause instanceof HttpException) {
        return FailureKind.PROTOCOL_ERROR; // the server's bytes are not an HTTP response
      }
      if (cause instanceof EOFException) {
        return FailureKind.BROKEN_RESPONSE;
      }
    }
    return hadResponse ? FailureKind.BROKEN_RESPONSE : FailureKind.CONNECT_FAILED;
  }

  /**
   * Jetty's description of one of its objects ({@code HttpConnectionOverHTTP@61630baf::…}): no
   * reason for an operator.
   */
  private static final Pattern OBJECT_DUMP =
      Pattern.compile("(^|[\\s:(])([a-z]+\\.)*[A-Z][A-Za-z0-9$]*@[0-9a-f]{5,}");

  /**
   * A short description of a failure in words: the innermost HTTP parse error when there is one,
   * else the first message that says something, never a dump of Jetty's connection objects (a body
   * cut short reads "the server closed the connection before the response ended").
   */
  static String describe(Throwable failure) {
    for (Throwable cause = innermostHttpError(failure); cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message == null || message.isBlank()) {
        continue;
      }
      int dump =
          message.indexOf(" on oejc"); // Jetty appends its connection's state to some messages
      String text = (dump > 0 ? message.substring(0, dump) : message).strip();
      if (!OBJECT_DUMP.matcher(text).find()) {
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
      }
    }
    return inWords(failure);
  }

  private static Throwable innermostHttpError(Throwable failure) {
    Throwable found = failure;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpException) {
        found = cause;
      }
    }
    return found;
  }

  /** What the kind of failure means, for a failure whose messages say nothing readable. */
  private static String inWords(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof EOFException) {
        return "the server closed the connection before the response ended";
      }
      if (cause instanceof ClosedChannelException) {
        return "the connection was closed";
      }
      if (cause instanceof TimeoutException || cause instanceof SocketTimeoutException) {
        return "no answer in time";
      }
      if (cause instanceof ConnectException) {
        return "the connection was refused";
      }
    }
    return failure.getClass().getSimpleName();
  }

  /** The request is aborted on purpose: the body is too large, or its metadata was rejected. */
  static final class AbortedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final transient FailureKind kind;

    AbortedException(FailureKind kind, String message) {
      super(message, null, false, false);
      this.kind = kind;
    }
  }
}
