package dev.crawler.common.http;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * HTTP dates (RFC 9110 section 5.6.7, the IMF-fixdate form: {@code Mon, 23 Nov 2026 09:00:00 GMT}).
 */
public final class HttpDate {

  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT);

  private HttpDate() {}

  /** The instant an HTTP date names; empty when the text is not one. */
  public static Optional<Instant> parse(String text) {
    try {
      return Optional.of(ZonedDateTime.parse(text.strip(), FORMAT).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
