package dev.crawler.frontier.rules;

import dev.crawler.events.Outcome;
import dev.crawler.frontier.rules.CrawlOption.DefaultAllow;
import dev.crawler.frontier.rules.CrawlOption.Scope;
import dev.crawler.frontier.rules.Resolution.Disposition;
import dev.crawler.frontier.rules.Resolution.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides, for one discovered URL, whether it is crawled and with which options: the recursive
 * rules, then link rules with the options the rules resolved. Pure and thread-safe.
 *
 * <ol>
 *   <li>All global options are assigned, then the URL's site's, then the rules are processed in
 *       order ({@link Rule.Apply}: options assigned and children processed only when it applies;
 *       {@link Rule.Filter}: marks the URL filtered). The last assignment of an option wins.
 *   <li>A filtered URL is not crawled, whatever is assigned later; it is logged ({@code FILTERED},
 *       the rule) only when a rule that filtered it has the log flag.
 *   <li>Otherwise {@code default-allow} decides: allow, disallow (no record), disallow-log.
 *   <li>An allowed URL then passes the link rules: scheme, length, the trap rules (repeated
 *       segments, path segments, query parameters, calendar hops), query string, extension, scope,
 *       depth.
 * </ol>
 */
public final class RuleEngine {

  private final CrawlConfig config;

  /** Every option at its default, then the global ones: the start of every URL's resolution. */
  private final Map<CrawlOption<?>, Setting> base;

  public RuleEngine(CrawlConfig config) {
    this.config = config;
    Map<CrawlOption<?>, Setting> options = new LinkedHashMap<>();
    CrawlOption.all()
        .values()
        .forEach(option -> options.put(option, new Setting(option.defaultValue(), "default")));
    config.global().forEach((option, value) -> options.put(option, new Setting(value, "global")));
    this.base = options;
  }

  public CrawlConfig config() {
    return config;
  }

  /**
   * The decision about a URL.
   *
   * @param url the URL, normalized if it is http(s)
   * @param depth link hops from a seed
   * @param scope what the link rules' scope check needs to know about the crawl's seeds
   */
  public Resolution resolve(String url, int depth, ScopeCheck scope) {
    return resolve(url, depth, scope, false);
  }

  /**
   * The decision about a URL that may be a sitemap: a sitemap ({@code .xml.gz}, {@code .gz}) is not
   * a document, so the ignored extensions do not apply to it; every other rule does.
   */
  public Resolution resolve(String url, int depth, ScopeCheck scope, boolean isSitemap) {
    return resolve(url, depth, scope, isSitemap, 0);
  }

  /**
   * The decision about a URL found {@code calendarHops} links in a row from dated URLs of its own
   * template ({@link UrlTraps#datedTemplate}); 0 when it was not found so.
   */
  public Resolution resolve(
      String url, int depth, ScopeCheck scope, boolean isSitemap, int calendarHops) {
    CandidateUrl candidate;
    try {
      candidate = CandidateUrl.of(url, depth);
    } catch (IllegalArgumentException e) {
      return rejected(
          url, Map.of(), Outcome.FILTERED, "MALFORMED_URL", Optional.empty(), List.of());
    }
    Resolution resolution = byRules(url, candidate);
    return resolution.isCrawled()
        ? linkRules(resolution, candidate, scope, isSitemap, calendarHops)
        : resolution;
  }

  /**
   * The options the rules assign to a URL (and whether a rule filters it), without the link rules:
   * for a URL decided already, whose options a fetch request, a refresh or a budget needs. Cheaper
   * than {@link #resolve}, which a URL goes through once, when it is discovered.
   */
  public Resolution optionsFor(String url, int depth) {
    try {
      return byRules(url, CandidateUrl.of(url, depth));
    } catch (IllegalArgumentException e) {
      return rejected(
          url, Map.of(), Outcome.FILTERED, "MALFORMED_URL", Optional.empty(), List.of());
    }
  }

  /** The rules' part of the decision: global, site and rule options, filters, default-allow. */
  private Resolution byRules(String url, CandidateUrl candidate) {
    Map<CrawlOption<?>, Setting> options = new LinkedHashMap<>(base);
    config
        .siteOf(url)
        .ifPresent(
            site ->
                site.options()
                    .forEach(
                        (option, value) ->
                            options.put(option, new Setting(value, "site:" + site.name()))));
    List<Rule.Filter> filters = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    process(config.rules(), candidate, options, filters, skipped);

    if (!filters.isEmpty()) {
      Optional<Rule.Filter> logged = filters.stream().filter(Rule.Filter::log).findFirst();
      Rule.Filter decisive = logged.orElse(filters.get(0));
      return new Resolution(
          url,
          Disposition.FILTERED,
          options,
          logged.map(f -> Outcome.FILTERED),
          logged.map(f -> f.detail() + " " + f.path()),
          Optional.of(decisive.path()),
          List.copyOf(skipped));
    }
    DefaultAllow allow = (DefaultAllow) options.get(CrawlOption.DEFAULT_ALLOW).value();
    if (allow != DefaultAllow.ALLOW) {
      String setBy = options.get(CrawlOption.DEFAULT_ALLOW).setBy();
      boolean isLogged = allow == DefaultAllow.DISALLOW_LOG;
      return new Resolution(
          url,
          Disposition.DISALLOWED,
          options,
          isLogged ? Optional.of(Outcome.FILTERED) : Optional.empty(),
          isLogged
              ? Optional.of("DEFAULT_DISALLOW (default-allow set by " + setBy + ")")
              : Optional.empty(),
          Optional.of(setBy),
          List.copyOf(skipped));
    }
    return new Resolution(
        url,
        Disposition.CRAWL,
        options,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        List.copyOf(skipped));
  }

  private static void process(
      List<Rule> rules,
      CandidateUrl url,
      Map<CrawlOption<?>, Setting> options,
      List<Rule.Filter> filters,
      List<String> skipped) {
    for (Rule rule : rules) {
      if (rule instanceof Rule.Apply apply) {
        if (apply.appliesTo(url)) {
          apply
              .options()
              .forEach(
                  (option, value) ->
                      options.put(option, new Setting(value, "rule:" + apply.path())));
          process(apply.children(), url, options, filters, skipped);
        } else {
          skipped.add(apply.path());
        }
      } else if (rule instanceof Rule.Filter filter && filter.filters(url)) {
        filters.add(filter);
      }
    }
  }

  /** Link rules, then the trap rules, applied with the resolved options (FDSE's order). */
  private static Resolution linkRules(
      Resolution resolution,
      CandidateUrl url,
      ScopeCheck scope,
      boolean isSitemap,
      int calendarHops) {
    if (!resolution.get(CrawlOption.SCHEMES).contains(url.scheme())) {
      return rejected(
          resolution,
          Outcome.FILTERED,
          "UNSUPPORTED_SCHEME " + url.scheme(),
          url.scheme().equals("http") || url.scheme().equals("https")
              ? setBy(resolution, CrawlOption.SCHEMES)
              : "link rule: scheme");
    }
    int maxLength = resolution.get(CrawlOption.MAX_URL_LENGTH);
    if (url.url().length() > maxLength) {
      return rejected(
          resolution,
          Outcome.FILTERED,
          "URL_TOO_LONG " + url.url().length() + " > " + maxLength,
          setBy(resolution, CrawlOption.MAX_URL_LENGTH));
    }
    Optional<Resolution> trap = trapRules(resolution, url, calendarHops);
    if (trap.isPresent()) {
      return trap.get();
    }
    if (url.hasQuery() && !resolution.get(CrawlOption.FOLLOW_QUERY_STRINGS)) {
      return rejected(
          resolution,
          Outcome.FILTERED,
          "QUERY_NOT_ALLOWED",
          setBy(resolution, CrawlOption.FOLLOW_QUERY_STRINGS));
    }
    List<String> allowedParameters = resolution.get(CrawlOption.ALLOWED_QUERY_PARAMETERS);
    if (!allowedParameters.isEmpty() && !allowedParameters.containsAll(url.parameters())) {
      return rejected(
          resolution,
          Outcome.FILTERED,
          "QUERY_NOT_ALLOWED parameters " + url.parameters(),
          setBy(resolution, CrawlOption.ALLOWED_QUERY_PARAMETERS));
    }
    // the extension is matched at the end of the whole address: /get?f=report.pdf ends in
    // .pdf, /doc.pdf?x=1 does not
    Optional<String> extension =
        isSitemap
            ? Optional.empty()
            : url.endsInExtension(resolution.get(CrawlOption.IGNORE_EXTENSIONS));
    if (extension.isPresent()) {
      return rejected(
          resolution,
          Outcome.FILTERED,
          "IGNORED_EXTENSION " + extension.get(),
          setBy(resolution, CrawlOption.IGNORE_EXTENSIONS));
    }
    Scope crawlScope = resolution.get(CrawlOption.SCOPE);
    if (!scope.isInScope(url, crawlScope)) {
      return rejected(
          resolution,
          Outcome.OUT_OF_SCOPE,
          "outside the seeds' " + CrawlOption.format(crawlScope) + " scope",
          setBy(resolution, CrawlOption.SCOPE));
    }
    int maxDepth = resolution.get(CrawlOption.MAX_DEPTH);
    if (maxDepth >= 0 && url.depth() > maxDepth) {
      return rejected(
          resolution,
          Outcome.TOO_DEEP,
          "depth " + url.depth() + " is beyond the maximum depth " + maxDepth,
          setBy(resolution, CrawlOption.MAX_DEPTH));
    }
    return resolution;
  }

  /** The shapes of URL that traps make ({@link UrlTraps}): each rule off at -1. */
  private static Optional<Resolution> trapRules(
      Resolution resolution, CandidateUrl url, int calendarHops) {
    int maxRepeated = resolution.get(CrawlOption.MAX_REPEATED_SEGMENTS);
    int maxSegments = resolution.get(CrawlOption.MAX_PATH_SEGMENTS);
    if (maxRepeated >= 0 || maxSegments >= 0) {
      List<String> segments = url.segments();
      Optional<UrlTraps.Repetition> repetition =
          maxRepeated >= 0 ? UrlTraps.repeatedRun(segments, maxRepeated) : Optional.empty();
      if (repetition.isPresent()) {
        String detail =
            "TRAP_REPEATED_SEGMENT '"
                + repetition.get().run()
                + "' "
                + repetition.get().times()
                + " times in a row > "
                + maxRepeated;
        return Optional.of(
            rejected(
                resolution,
                Outcome.FILTERED,
                detail,
                setBy(resolution, CrawlOption.MAX_REPEATED_SEGMENTS)));
      }
      if (maxSegments >= 0 && segments.size() > maxSegments) {
        String detail = "TRAP_TOO_MANY_SEGMENTS " + segments.size() + " > " + maxSegments;
        return Optional.of(
            rejected(
                resolution,
                Outcome.FILTERED,
                detail,
                setBy(resolution, CrawlOption.MAX_PATH_SEGMENTS)));
      }
    }
    int maxParameters = resolution.get(CrawlOption.MAX_QUERY_PARAMETERS);
    if (maxParameters >= 0 && url.parameters().size() > maxParameters) {
      String detail = "TRAP_TOO_MANY_PARAMETERS " + url.parameters().size() + " > " + maxParameters;
      return Optional.of(
          rejected(
              resolution,
              Outcome.FILTERED,
              detail,
              setBy(resolution, CrawlOption.MAX_QUERY_PARAMETERS)));
    }
    int maxHops = resolution.get(CrawlOption.MAX_CALENDAR_HOPS);
    if (maxHops >= 0 && calendarHops > maxHops) {
      String detail =
          "TRAP_CALENDAR "
              + calendarHops
              + " links in a row within "
              + UrlTraps.datedTemplate(url).orElse(url.url())
              + " > "
              + maxHops;
      return Optional.of(
          rejected(
              resolution,
              Outcome.FILTERED,
              detail,
              setBy(resolution, CrawlOption.MAX_CALENDAR_HOPS)));
    }
    return Optional.empty();
  }

  private static String setBy(Resolution resolution, CrawlOption<?> option) {
    return option.name() + " set by " + resolution.options().get(option).setBy();
  }

  private static Resolution rejected(
      Resolution resolution, Outcome outcome, String detail, String rule) {
    return new Resolution(
        resolution.url(),
        Disposition.FILTERED,
        resolution.options(),
        Optional.of(outcome),
        Optional.of(detail),
        Optional.of(rule),
        resolution.skipped());
  }

  private static Resolution rejected(
      String url,
      Map<CrawlOption<?>, Setting> options,
      Outcome outcome,
      String detail,
      Optional<String> rule,
      List<String> skipped) {
    return new Resolution(
        url,
        Disposition.FILTERED,
        options,
        Optional.of(outcome),
        Optional.of(detail),
        rule,
        skipped);
  }
}
