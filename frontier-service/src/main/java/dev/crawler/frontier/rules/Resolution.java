package dev.crawler.frontier.rules;

import dev.crawler.events.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the rules decided about a URL ("view resolved"): the disposition, every option with who set
 * it, the rules that filtered it and those whose children were skipped.
 *
 * @param options every option's value and who set it: {@code default}, {@code global}, {@code
 *     site:<name>} or {@code rule:<path>}
 * @param outcome the outcome to log, when the URL is logged (FILTERED, OUT_OF_SCOPE, TOO_DEEP)
 * @param detail the outcome's detail
 * @param rule the rule that decided, when one did
 * @param skipped the rules whose condition did not let them apply, so their children were not
 *     evaluated
 */
public record Resolution(
    String url,
    Disposition disposition,
    Map<CrawlOption<?>, Setting> options,
    Optional<Outcome> outcome,
    Optional<String> detail,
    Optional<String> rule,
    List<String> skipped) {

  /** What happens to the URL. */
  public enum Disposition {
    /** It is crawled. */
    CRAWL,
    /** A rule or link rule filtered it. */
    FILTERED,
    /** default-allow dropped it. */
    DISALLOWED
  }

  /** An option's value and who set it. */
  public record Setting(Object value, String setBy) {}

  /** Whether the URL is crawled. */
  public boolean isCrawled() {
    return disposition == Disposition.CRAWL;
  }

  /** Whether the decision is recorded in the crawl log (otherwise no record of the URL is kept). */
  public boolean isLogged() {
    return outcome.isPresent();
  }

  /** An option's value. */
  @SuppressWarnings("unchecked")
  public <T> T get(CrawlOption<T> option) {
    Setting setting = options.get(option);
    return setting == null ? option.defaultValue() : (T) setting.value();
  }
}
