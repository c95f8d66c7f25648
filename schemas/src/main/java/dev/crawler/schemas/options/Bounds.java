package dev.crawler.schemas.options;

/**
 * The values a whole-number option takes, from {@code min} to {@code max} inclusive: its one
 * definition, which the crawl configuration, the settings, the command line and the fetch requests'
 * reader all check against.
 */
public record Bounds(long min, long max) {

  public Bounds {
    if (min > max) {
      throw new IllegalArgumentException("bounds from " + min + " to " + max);
    }
  }

  /** From {@code min} up, with no maximum. */
  public static Bounds atLeast(long min) {
    return new Bounds(min, Long.MAX_VALUE);
  }

  public boolean contains(long value) {
    return value >= min && value <= max;
  }

  /**
   * The value, when it is within the bounds.
   *
   * @throws IllegalArgumentException saying which bound it is past
   */
  public long check(long value) {
    if (value < min) {
      throw new IllegalArgumentException(value + " is less than " + min);
    }
    if (value > max) {
      throw new IllegalArgumentException(value + " is more than " + max);
    }
    return value;
  }

  /** The bounds as the docs give them: {@code 0 to 3600000}, or {@code -1 or more}. */
  @Override
  public String toString() {
    boolean isUnbounded = max == Long.MAX_VALUE || max == Integer.MAX_VALUE;
    return isUnbounded ? min + " or more" : min + " to " + max;
  }
}
