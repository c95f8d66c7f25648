package dev.crawler.frontier.recrawl;

import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Site;
import java.time.Duration;
import java.util.Optional;

/**
 * The recrawl options of one site: both the global switch and the site's must be on; each event
 * gives {@code runsPerEvent} runs (one request each) to one site; a document is recrawled at most
 * {@code maxCount} times, at least {@code minBetween} apart, and only while it is newer than {@code
 * newerThan} (strictly: a document exactly that old is not suitable).
 *
 * @param isActive the global {@code recrawl.active} and the site's {@code recrawl.site-active},
 *     both on
 * @param runsPerEvent {@code recrawl.runs-per-event}, at least 1
 * @param maxCount {@code recrawl.max-count} per document, at least 1
 * @param minBetween {@code recrawl.min-minutes-between} two recrawls of a document
 * @param newerThan {@code recrawl.newer-than-minutes}; empty for no limit
 */
public record RecrawlPolicy(
    boolean isActive,
    int runsPerEvent,
    int maxCount,
    Duration minBetween,
    Optional<Duration> newerThan) {

  /** A site's policy: the global options, then the site's (rules do not assign site options). */
  public static RecrawlPolicy of(CrawlConfig config, Site site) {
    boolean isActive =
        config.siteValue(site, CrawlOption.RECRAWL_ACTIVE)
            && config.siteValue(site, CrawlOption.RECRAWL_SITE_ACTIVE);
    int newerThanMinutes = config.siteValue(site, CrawlOption.RECRAWL_NEWER_THAN_MINUTES);
    return new RecrawlPolicy(
        isActive,
        config.siteValue(site, CrawlOption.RECRAWL_RUNS_PER_EVENT),
        config.siteValue(site, CrawlOption.RECRAWL_MAX_COUNT),
        Duration.ofMinutes(config.siteValue(site, CrawlOption.RECRAWL_MIN_MINUTES_BETWEEN)),
        newerThanMinutes == 0
            ? Optional.empty()
            : Optional.of(Duration.ofMinutes(newerThanMinutes)));
  }

  public RecrawlPolicy {
    if (runsPerEvent < 1 || maxCount < 1 || minBetween.isNegative()) {
      throw new IllegalArgumentException(
          "runs per event and max count are at least 1, the minimum time between recrawls at least 0");
    }
  }
}
