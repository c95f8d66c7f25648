package dev.crawler.frontier.rules;

import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The crawl configuration ({@code crawl.yaml}): global options, sites, and the ordered rules, with
 * the policies already turned into rules. Immutable and thread-safe.
 */
public record CrawlConfig(Map<CrawlOption<?>, Object> global, List<Site> sites, List<Rule> rules) {

  /** No sites, no rules, every option at its default. */
  public static final CrawlConfig DEFAULTS = new CrawlConfig(Map.of(), List.of(), List.of());

  /** The same configuration with global options assigned on top (e.g. from command-line flags). */
  public CrawlConfig withGlobal(Map<CrawlOption<?>, Object> overrides) {
    Map<CrawlOption<?>, Object> merged = new LinkedHashMap<>(global);
    merged.putAll(overrides);
    return new CrawlConfig(Map.copyOf(merged), sites, rules);
  }

  /** An option's global value: assigned under {@code global}, else its default. */
  public <T> T globalValue(CrawlOption<T> option) {
    return typed(global.getOrDefault(option, option.defaultValue()));
  }

  /**
   * An option's value for a site as a whole: the site's, else the global value (rules are per URL
   * and not asked).
   */
  public <T> T siteValue(Site site, CrawlOption<T> option) {
    return site.options().containsKey(option)
        ? typed(site.options().get(option))
        : globalValue(option);
  }

  @SuppressWarnings("unchecked")
  private static <T> T typed(Object value) {
    return (T) value; // the loader stores each option's value as its option parses it
  }

  /** The site a URL belongs to: the first whose seeds include the URL's origin. */
  public Optional<Site> siteOf(String url) {
    String origin;
    try {
      origin = Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      return Optional.empty();
    }
    for (Site site : sites) {
      for (String seed : site.seeds()) {
        if (origin.equals(Origin.keyOf(seed))) {
          return Optional.of(site);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Whether any part of the configuration (global, a site, a rule at any depth) assigns the option,
   * so a decision that only needs it can be skipped when nothing does and its default applies.
   */
  public boolean assigns(CrawlOption<?> option) {
    return global.containsKey(option)
        || sites.stream().anyMatch(site -> site.options().containsKey(option))
        || assigns(rules, option);
  }

  /**
   * Whether any part of the configuration assigns the option a value other than {@code value}: for
   * instance whether any URL may be rendered ({@code render} other than {@code never}).
   */
  public boolean assignsOtherThan(CrawlOption<?> option, Object value) {
    if (global.containsKey(option) && !value.equals(global.get(option))) {
      return true;
    }
    for (Site site : sites) {
      if (site.options().containsKey(option) && !value.equals(site.options().get(option))) {
        return true;
      }
    }
    return assignsOtherThan(rules, option, value);
  }

  private static boolean assignsOtherThan(List<Rule> rules, CrawlOption<?> option, Object value) {
    for (Rule rule : rules) {
      if (rule instanceof Rule.Apply apply
          && ((apply.options().containsKey(option) && !value.equals(apply.options().get(option)))
              || assignsOtherThan(apply.children(), option, value))) {
        return true;
      }
    }
    return false;
  }

  private static boolean assigns(List<Rule> rules, CrawlOption<?> option) {
    for (Rule rule : rules) {
      if (rule instanceof Rule.Apply apply
          && (apply.options().containsKey(option) || assigns(apply.children(), option))) {
        return true;
      }
    }
    return false;
  }

  /** Every site's seeds. */
  public List<String> seeds() {
    List<String> seeds = new ArrayList<>();
    sites.forEach(site -> seeds.addAll(site.seeds()));
    return seeds;
  }

  /**
   * The configuration's version: a fingerprint of what it says (the same options, sites and rules
   * give the same version, whatever the file's layout or the order of its maps), twelve hex digits.
   * The crawl log names it with operators' commands, and a delay set by an operator lasts until it
   * changes.
   */
  public String version() {
    StringBuilder text = new StringBuilder();
    canonical(this, text);
    return HexFormat.of().formatHex(runtimeSha256(text.toString())).substring(0, 12);
  }

  /**
   * SHA-256 from the Java runtime, not the native provider the pages' checksums use: a
   * configuration is a few kilobytes, hashed once, on the command's main thread before the broker
   * starts, where loading that provider took ~0.2 s of the time to the first request.
   */
  private static byte[] runtimeSha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  private static void canonical(Object value, StringBuilder text) {
    if (value instanceof Map<?, ?> map) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      map.forEach((key, entry) -> sorted.put(String.valueOf(key), entry));
      text.append('{');
      sorted.forEach(
          (key, entry) -> {
            text.append(key).append('=');
            canonical(entry, text);
            text.append(';');
          });
      text.append('}');
    } else if (value instanceof Collection<?> items) {
      text.append('[');
      for (Object item : items) {
        canonical(item, text);
        text.append(',');
      }
      text.append(']');
    } else if (value instanceof Optional<?> optional) {
      canonical(optional.orElse(null), text);
    } else if (value != null && value.getClass().isRecord()) {
      text.append(value.getClass().getSimpleName()).append('(');
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        try {
          text.append(component.getName()).append('=');
          canonical(component.getAccessor().invoke(value), text);
          text.append(';');
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      text.append(')');
    } else {
      text.append(value == null ? "null" : CrawlOption.format(value));
    }
  }
}
