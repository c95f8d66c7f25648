package dev.crawler.parser.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * A page's publish date, from where publishers put it, first found wins: {@code <meta
 * property="article:published_time">}, {@code datePublished} in JSON-LD, the first {@code <time
 * datetime>}. Dates are ISO 8601 (a date alone is midnight UTC, a time without offset UTC). When a page
 * has none, the committer uses the first time it saw the URL (seed 000).
 */
final class PublishDates {

  private static final Pattern JSON_LD_DATE_PUBLISHED = Pattern.compile("\"datePublished\"\\s*:\\s*\"([^\"]+)\"");

  private PublishDates() {}

  static Optional<Instant> of(Document document) {
    Element meta = document.selectFirst("meta[property=article:published_time][content], meta[name=article:published_time][content]");
    if (meta != null) {
      Optional<Instant> date = parse(meta.attr("content"));
      if (date.isPresent()) {
        return date;
      }
    }
    for (Element script : document.select("script[type=application/ld+json]")) {
      Matcher matcher = JSON_LD_DATE_PUBLISHED.matcher(script.data());
      if (matcher.find()) {
        Optional<Instant> date = parse(matcher.group(1));
        if (date.isPresent()) {
          return date;
        }
      }
    }
    Element time = document.selectFirst("time[datetime]");
    return time == null ? Optional.empty() : parse(time.attr("datetime"));
  }

  /** An ISO 8601 date or date-time; empty when it is neither. */
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
