package dev.crawler.frontier.domain;

import dev.crawler.events.UrlKind;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.rules.ScopeCheck;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.schemas.options.RequestOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the crawl configuration's rules say about a URL in one frontier task's scope: the one owner
 * of that answer, asked when a URL is discovered, released, refreshed, counted against a budget and
 * decided again by an operator's command. The scope of a URL's origin is what the task knows of it:
 * the seeds, and whether a seed named the origin (its stored in-scope flag); a seed itself is in
 * scope wherever it is.
 */
public final class TaskRules {

  private final CrawlConfig config;
  private final String version;
  private final RuleEngine engine;

  /** The seeds, parsed once; the task adds which of its origins a seed named. */
  private final ScopeCheck seedScope;

  /** Whether the configuration turns continuous refresh on anywhere (decided once). */
  private final boolean isRefreshConfigured;

  /** The rules of the settings' configuration, with its seeds and the settings' own. */
  public TaskRules(FrontierSettings settings) {
    this(settings, settings.crawl().version());
  }

  /**
   * The rules of the settings' configuration, known by {@code version}: the version it was applied
   * under ({@code crawler config apply} names it), which requests carry and the crawl log names.
   */
  public TaskRules(FrontierSettings settings, String version) {
    this.config = settings.crawl();
    this.version = version;
    this.engine = new RuleEngine(config);
    List<String> seeds = new ArrayList<>(settings.seeds());
    seeds.addAll(config.seeds());
    this.seedScope = ScopeCheck.ofSeeds(seeds);
    this.isRefreshConfigured = config.assigns(CrawlOption.RECRAWL_INTERVAL_PER_URL);
  }

  /** The version of the configuration the rules come from. */
  public String version() {
    return version;
  }

  /**
   * Whether any URL may have a refresh interval, so that a fetched URL's rules are worth asking.
   */
  public boolean isRefreshConfigured() {
    return isRefreshConfigured;
  }

  /**
   * A URL decided as it is found.
   *
   * @param isSeedOrigin whether a seed named the URL's origin
   * @param calendarHops links in a row between dated URLs of the URL's template
   */
  public Resolution decide(
      String url, String origin, boolean isSeedOrigin, UrlKind kind, int depth, int calendarHops) {
    ScopeCheck scope =
        kind == UrlKind.SEED
            ? ScopeCheck.ANY
            : seedScope.withSeedOrigins(candidate -> isSeedOrigin && candidate.equals(origin));
    return engine.resolve(url, depth, scope, kind == UrlKind.SITEMAP, calendarHops);
  }

  /** A known URL decided again (a recrawl of every URL), as it was found. */
  public Resolution decideAgain(String url, String origin, boolean isSeedOrigin, UrlState state) {
    return decide(
        url,
        origin,
        isSeedOrigin,
        UrlLifecycle.kindOf(state),
        state.getDepth(),
        state.getCalendarHops());
  }

  /** The options of a URL at a depth, and who set each; its scope plays no part in them. */
  public Resolution optionsFor(String url, int depth) {
    return engine.optionsFor(url, depth);
  }

  /** One option of a URL at a depth. */
  public <T> T option(CrawlOption<T> option, String url, int depth) {
    return engine.optionsFor(url, depth).get(option);
  }

  /**
   * The options a fetch request of the URL carries, as text, with the configuration's version:
   * those the fetcher and parser read, and of those carried only when set, the ones set.
   */
  public Map<String, String> requestOptions(String url, int depth) {
    Map<String, String> options = new HashMap<>();
    engine
        .optionsFor(url, depth)
        .options()
        .forEach(
            (option, setting) -> {
              if (option.isCarriedByRequests() && !option.isCarriedOnlyWhenSet(setting.value())) {
                options.put(option.name(), option.toRequestValue(setting.value()));
              }
            });
    options.put(RequestOptions.CONFIG_VERSION.name(), version);
    return options;
  }
}
