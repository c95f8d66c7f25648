package dev.crawler.frontier.streams;

import dev.crawler.common.decision.Decision;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.TaskRules;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.domain.UrlLifecycle.Rediscovery;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.UrlTraps;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a discovered URL does to a frontier task: normalized (unless it says it is already: the
 * parser's links) and sent on to the partition of its origin when it came under another key; then,
 * new, decided by the rules ({@link TaskRules}) and queued under its budgets, or logged, or
 * dropped; known, decided as the known URL it is ({@link UrlLifecycle#rediscovered}). A seed's
 * origin coming into scope has its /sitemap.xml read.
 */
final class Discoveries {

  private final TaskRules rules;
  private final FrontierStores stores;
  private final FrontierOutput output;
  private final Releases releases;
  private final SiteBudgets budgets;

  Discoveries(
      TaskRules rules,
      FrontierStores stores,
      FrontierOutput output,
      Releases releases,
      SiteBudgets budgets) {
    this.rules = rules;
    this.stores = stores;
    this.output = output;
    this.releases = releases;
    this.budgets = budgets;
  }

  /** A discovered URL, keyed by its origin (a page's links may come under another key). */
  void on(@Nullable String key, DiscoveredUrl discovered) {
    Instant now = output.now();
    String url;
    String origin;
    try {
      // the parser's links come normalized: a second pass was a sixth of this thread's time
      url =
          discovered.getNormalized()
              ? discovered.getUrl()
              : UrlNormalizer.normalize(discovered.getUrl());
      origin = Origin.keyOf(url, key);
    } catch (InvalidUrlException e) {
      logUnsupported(key, discovered, e, now);
      return;
    }
    if (!origin.equals(key)) {
      // written under another key: send it on to the partition that owns its origin
      discovered.setUrl(url);
      discovered.setNormalized(true);
      output.forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
      return;
    }
    onDiscovered(origin, url, discovered, now);
  }

  /**
   * A discovered URL of this task's origins: decided as new, or as the known URL it is ({@link
   * UrlLifecycle#rediscovered}); its origin releases what it can and is stored when it changed.
   */
  private void onDiscovered(String origin, String url, DiscoveredUrl discovered, Instant now) {
    OriginState originState = stores.originState(origin);
    boolean isNewlyInScope = discovered.getKind() == UrlKind.SEED && !originState.getInScope();
    if (isNewlyInScope) {
      originState.setInScope(true);
    }
    UrlState known = stores.urls.get(url);
    Rediscovery rediscovery =
        known == null
            ? Rediscovery.DECIDE_AGAIN
            : UrlLifecycle.rediscovered(
                known,
                discovered.getKind(),
                discovered.getSitemapLastModified(),
                stores.errorsClearedAt(),
                now);
    boolean isQueued =
        switch (rediscovery) {
          case RECRAWL_NOW -> {
            // the recrawl scheduler asks for this URL now: released at once, whatever
            // its due time
            stores.requeue(origin, originState, url, Objects.requireNonNull(known));
            releases.release(origin, originState, now);
            stores.saveOrigin(origin, originState);
            yield false;
          }
          case BEING_FETCHED -> false;
          case DECIDE_AGAIN -> decideNew(origin, originState, url, discovered, now);
          case CHANGED_SINCE_FETCH, LINKED_AGAIN -> {
            stores.requeue(origin, originState, url, Objects.requireNonNull(known));
            yield true;
          }
          case BLACKLISTED -> {
            logBlacklisted(origin, url, Objects.requireNonNull(known), discovered, now);
            yield false;
          }
          case PREMATURE -> {
            logPremature(origin, url, Objects.requireNonNull(known), discovered, now);
            yield false;
          }
          case KNOWN -> false; // the first state takes precedence
        };
    if (rediscovery == Rediscovery.RECRAWL_NOW || rediscovery == Rediscovery.BEING_FETCHED) {
      return; // a recrawl's request: nothing else to do
    }
    if (isNewlyInScope) {
      discoverSitemapXml(origin, now);
    }
    // most discovered URLs are known already: then nothing changed and nothing is written
    if (isNewlyInScope || isQueued) {
      releases.release(origin, originState, now);
      stores.saveOrigin(origin, originState);
    }
  }

  private void logUnsupported(
      @Nullable String key, DiscoveredUrl discovered, InvalidUrlException e, Instant now) {
    String raw = discovered.getUrl().strip();
    String detail =
        UrlNormalizer.isHttp(raw) || !raw.contains(":")
            ? "MALFORMED_URL " + e.getMessage()
            : "UNSUPPORTED_SCHEME " + raw.substring(0, raw.indexOf(':'));
    output.log(
        key == null ? "" : key,
        Decision.of(raw, Outcome.FILTERED, detail)
            .withRule("link rule: scheme")
            .withDepth(discovered.getDepth()),
        discovered,
        now);
  }

  /** An error blacklists the URL until an operator clears the errors. */
  private void logBlacklisted(
      String origin, String url, UrlState known, DiscoveredUrl discovered, Instant now) {
    Decision decision =
        Decision.of(
                url,
                Outcome.BLACKLISTED,
                "earlier "
                    + known.getOutcome()
                    + " ("
                    + known.getDetail()
                    + "); cleared by crawler errors clear")
            .withDepth(discovered.getDepth());
    output.log(origin, decision, discovered, now);
  }

  /** A known URL not yet due for its refresh: logged once per due time. */
  private void logPremature(
      String origin, String url, UrlState known, DiscoveredUrl discovered, Instant now) {
    known.setPrematureLogged(true);
    stores.urls.put(url, known);
    output.log(
        origin,
        Decision.of(url, Outcome.PREMATURE, "due at " + known.getDueAt())
            .withDepth(discovered.getDepth()),
        discovered,
        now);
  }

  /**
   * A URL this task does not know (or knows no longer, its error cleared) is decided by the rules:
   * crawled (admitted under its budgets), logged and kept as decided, or dropped without a record.
   * Returns whether its origin's state changed.
   */
  private boolean decideNew(
      String origin, OriginState originState, String url, DiscoveredUrl discovered, Instant now) {
    int calendarHops = calendarHops(url, discovered);
    Resolution resolution =
        rules.decide(
            url,
            origin,
            originState.getInScope(),
            discovered.getKind(),
            discovered.getDepth(),
            calendarHops);
    if (resolution.isCrawled()) {
      UrlState state =
          newState(discovered, now)
              .setCalendarHops(calendarHops)
              .setStatus(UrlStatus.QUEUED)
              .setDecidedUnder(rules.version())
              .build();
      if (budgets.admit(origin, originState, url, state, resolution, now)
          == SiteBudgets.Admission.OVER_ORIGIN_BUDGET) {
        budgets.rejectOverOriginBudget(
            origin, originState, url, state, resolution, discovered, now);
      }
      return true; // the origin's budget figures changed at least
    }
    if (resolution.isLogged()) {
      Outcome outcome = resolution.outcome().orElseThrow();
      String detail = resolution.detail().orElse(null);
      stores.urls.put(
          url,
          newState(discovered, now)
              .setCalendarHops(calendarHops)
              .setStatus(UrlStatus.DONE)
              .setOutcome(outcome.name())
              .setDetail(detail)
              .setDecidedAt(now)
              .build());
      Decision decision = Decision.of(url, outcome, detail).withDepth(discovered.getDepth());
      output.log(
          origin, resolution.rule().map(decision::withRule).orElse(decision), discovered, now);
    }
    // filtered or disallowed without the log flag: no record of it is kept
    return false;
  }

  /**
   * How many links in a row led to the URL between dated URLs of its template (a calendar's next
   * day, {@link UrlTraps#datedTemplate}): its source's count plus one when the source has the same
   * template, else 0. Only new URLs found on a page are asked, so the source's state is one store
   * read.
   */
  private int calendarHops(String url, DiscoveredUrl discovered) {
    String source = discovered.getSourceUrl();
    if (source == null
        || discovered.getKind() == UrlKind.SEED
        || discovered.getKind() == UrlKind.SITEMAP) {
      return 0;
    }
    Optional<String> template = UrlTraps.datedTemplate(url);
    if (template.isEmpty() || !template.equals(UrlTraps.datedTemplate(source))) {
      return 0;
    }
    UrlState from = stores.urls.get(source);
    return (from == null ? 0 : from.getCalendarHops()) + 1;
  }

  /**
   * A seed's origin came into scope: its /sitemap.xml is read once, unless the sitemap-xml option
   * is off.
   */
  private void discoverSitemapXml(String origin, Instant now) {
    String sitemap = origin + "/sitemap.xml";
    if (rules.option(CrawlOption.SITEMAP_XML, sitemap, 0)) {
      DiscoveredUrl discovered =
          DiscoveredUrl.newBuilder()
              .setUrl(sitemap)
              .setDepth(0)
              .setKind(UrlKind.SITEMAP)
              .setDiscoveredAt(now)
              .build();
      output.forward(FrontierTopology.DISCOVERED_SINK, origin, discovered, now);
    }
  }

  private static UrlState.Builder newState(DiscoveredUrl discovered, Instant now) {
    return UrlState.newBuilder()
        .setChangeFrequency(discovered.getSitemapChangeFrequency())
        .setDepth(discovered.getDepth())
        .setKind(discovered.getKind().name())
        .setSourceUrl(discovered.getSourceUrl())
        .setFirstSeenAt(now);
  }
}
