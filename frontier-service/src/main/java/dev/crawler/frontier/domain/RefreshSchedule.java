package dev.crawler.frontier.domain;

import dev.crawler.events.Outcome;
import java.util.Locale;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * When a fetched URL is fetched again (continuous refresh, seeds 002 and 003: per-URL due times):
 * after {@code interval} minutes; a sitemap's {@code changefreq} sets the interval instead; with
 * {@code adaptive}, the interval halves when the content changed and doubles when it did not,
 * within {@code min} and {@code max}; a failed fetch is tried again after {@code errorInterval}
 * when set. Pure.
 *
 * @param interval minutes; 0 turns refresh off
 * @param isAdaptive whether the interval adapts to changes
 * @param min the shortest adaptive interval, minutes
 * @param max the longest adaptive interval, minutes
 * @param errorInterval minutes after a failed fetch; 0 for the interval
 */
public record RefreshSchedule(
    long interval, boolean isAdaptive, long min, long max, long errorInterval) {

  /**
   * The next interval in minutes after a fetch that ended with {@code outcome}, the URL's current
   * interval being {@code current} (0 when it has none) and its sitemap changefreq {@code
   * changeFrequency}; empty when the URL is not refreshed.
   */
  public OptionalLong next(Outcome outcome, long current, @Nullable String changeFrequency) {
    if (interval <= 0) {
      return OptionalLong.empty();
    }
    long base = changeFrequency == null ? interval : minutesOf(changeFrequency).orElse(interval);
    if (base <= 0) {
      return OptionalLong.empty(); // changefreq never
    }
    if (FrontierSettings.isError(outcome)) {
      return OptionalLong.of(errorInterval > 0 ? errorInterval : base);
    }
    if (!isAdaptive || current <= 0) {
      return OptionalLong.of(base);
    }
    if (outcome == Outcome.COMMITTED) {
      return OptionalLong.of(Math.max(min, current / 2));
    }
    if (outcome == Outcome.UNMODIFIED) {
      return OptionalLong.of(Math.min(max, current * 2));
    }
    return OptionalLong.of(current);
  }

  /** A sitemap changefreq in minutes (sitemaps.org): never is 0. */
  static OptionalLong minutesOf(String changeFrequency) {
    return switch (changeFrequency.toLowerCase(Locale.ROOT)) {
      case "always", "hourly" -> OptionalLong.of(60);
      case "daily" -> OptionalLong.of(24 * 60);
      case "weekly" -> OptionalLong.of(7 * 24 * 60);
      case "monthly" -> OptionalLong.of(30 * 24 * 60);
      case "yearly" -> OptionalLong.of(365 * 24 * 60);
      case "never" -> OptionalLong.of(0);
      default -> OptionalLong.empty();
    };
  }
}
