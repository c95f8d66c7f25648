package dev.crawler.parser.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;

/**
 * A page's publish date, from where publishers put it, the first that holds a date wins: {@code
 * <meta property="article:published_time">} (Open Graph), {@code datePublished} in a JSON-LD script
 * (schema.org), the first {@code <time datetime>}. Dates are ISO 8601 (a date alone is midnight
 * UTC, a time without offset UTC). When a page has none, the committer uses the first time it saw
 * the URL.
 */
final class PublishDates {

  private static final Pattern JSON_LD_DATE_PUBLISHED =
      Pattern.compile("\"datePublished\"\\s*:\\s*\"([^\"]+)\"");

  private PublishDates() {}

  /**
   * The first date among the candidates, in the order of the class comment.
   *
   * @param jsonLdScripts the {@code <script type="application/ld+json">} elements, read only when
   *     the meta tag gave no date
   */
  static Optional<Instant> first(
      Optional<String> articlePublishedTime,
      List<Element> jsonLdScripts,
      Optional<String> timeDatetime) {
    Optional<Instant> date = articlePublishedTime.flatMap(PublishDates::parse);
    if (date.isPresent()) {
      return date;
    }
    for (Element script : jsonLdScripts) {
      Matcher matcher = JSON_LD_DATE_PUBLISHED.matcher(script.data());
      if (matcher.find()) {
        date = parse(matcher.group(1));
        if (date.isPresent()) {
          return date;
        }
      }
    }
    return timeDatetime.flatMap(PublishDates::parse);
  }

  /** An ISO 8601 date-time with or without offset, or a date; empty when it is none of them. */
  static Optional<Instant> parse(String text) {
    String value = text.strip();
    try {
      return Optional.of(OffsetDateTime.parse(value).toInstant());
    } catch (DateTimeParseException e) {
      // not with an offset: try without
    }
    try {
      return Optional.of(LocalDateTime.parse(value).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      // not a local date-time: try a date
    }
    try {
      return Optional.of(LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
