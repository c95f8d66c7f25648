package dev.crawler.common.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as operators write them: a whole number and a unit, {@code 30s}, {@code 5m}, {@code
 * 2h}, {@code 1d}.
 */
public final class Durations {

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*([smhd]?)");

  private Durations() {}

  /**
   * The duration the text names, more than zero.
   *
   * @param bareUnit the unit of a number written without one; empty when a unit is required
   * @throws IllegalArgumentException saying what is wrong with the text
   */
  public static Duration parse(String text, Optional<ChronoUnit> bareUnit) {
    Matcher matcher = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!matcher.matches() || (matcher.group(2).isEmpty() && bareUnit.isEmpty())) {
      String bare = bareUnit.map(unit -> unit.name().toLowerCase(Locale.ROOT) + ", or ").orElse("");
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (" + bare + "30s, 5m, 2h, 1d)");
    }
    long amount = Long.parseLong(matcher.group(1));
    Duration duration =
        switch (matcher.group(2)) {
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          case "d" -> Duration.ofDays(amount);
          default -> Duration.of(amount, bareUnit.orElseThrow());
        };
    if (duration.isZero()) {
      throw new IllegalArgumentException("'" + text + "' is not more than zero");
    }
    return duration;
  }
}
