package dev.crawler.schemas.options;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One per-URL option as it travels in a fetch request's option map: its name, its default, how its
 * value is written as a string and read back. Reading never fails: a missing value is the default,
 * and so is one that cannot be read (the frontier validated the configuration it came from, so an
 * unreadable value means a hand-made or foreign record, which must not fail a fetch). Immutable and
 * thread-safe.
 *
 * @param <T> the value type
 */
public final class RequestOption<T> {

  private final String name;
  private final T defaultValue;
  private final Function<String, T> reader;
  private final Function<T, String> writer;
  private final @Nullable Bounds bounds;

  RequestOption(
      String name,
      T defaultValue,
      Function<String, T> reader,
      Function<T, String> writer,
      @Nullable Bounds bounds) {
    this.name = name;
    this.defaultValue = defaultValue;
    this.reader = reader;
    this.writer = writer;
    this.bounds = bounds;
  }

  /** The key in a fetch request's option map, as the crawl configuration spells it. */
  public String name() {
    return name;
  }

  /** The values a whole-number option takes; empty for the others. */
  public Optional<Bounds> bounds() {
    return Optional.ofNullable(bounds);
  }

  /** The value of a URL whose configuration does not set the option. */
  public T defaultValue() {
    return defaultValue;
  }

  /** The value the option map gives, or the default when it gives none or an unreadable one. */
  public T readFrom(Map<String, String> options) {
    return readFrom(options, defaultValue);
  }

  /**
   * The value the option map gives, or {@code fallback} when it gives none or an unreadable one.
   */
  public T readFrom(Map<String, String> options, T fallback) {
    String value = options.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Objects.requireNonNull(reader.apply(value));
    } catch (RuntimeException e) {
      return fallback;
    }
  }

  /** The value as the option map carries it. */
  public String write(T value) {
    return writer.apply(value);
  }

  @Override
  public String toString() {
    return name;
  }
}
