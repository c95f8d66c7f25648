package dev.crawler.frontier.streams;

import dev.crawler.common.decision.Decision;
import dev.crawler.common.url.Site;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.Outcome;
import dev.crawler.events.SiteBudgetStep;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.TaskRules;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.Origin;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Admission of the URLs the rules crawl under the budgets of their origin ({@code
 * max-pages-per-origin}, counted in the origin's state) and of their site ({@code
 * max-pages-per-site}, counted by the one partition of the site's key, so the budget is exact).
 */
final class SiteBudgets {

  /**
   * The control store's key prefix of a site's count of admitted URLs (kept in the partition of
   * {@link #siteKey}).
   */
  static final String SITE_ADMITTED = "site-admitted ";

  /** What became of a URL the rules crawl, under its budgets. */
  enum Admission {
    /** Queued to be fetched. */
    QUEUED,
    /** Waiting for the answer of the partition that counts its site ({@link #onStep}). */
    RESERVING,
    /** Not admitted: its origin's budget is spent; its state is left to the caller. */
    OVER_ORIGIN_BUDGET
  }

  private final TaskRules rules;
  private final FrontierStores stores;
  private final FrontierOutput output;
  private final Releases releases;

  SiteBudgets(TaskRules rules, FrontierStores stores, FrontierOutput output, Releases releases) {
    this.rules = rules;
    this.stores = stores;
    this.output = output;
    this.releases = releases;
  }

  /**
   * A URL the rules crawl, admitted under its origin's and its site's budgets (sitemaps are not
   * counted): queued, or held while the partition that counts the site decides, or not admitted. An
   * admitted URL's state is stored.
   */
  Admission admit(
      String origin,
      OriginState originState,
      String url,
      UrlState state,
      Resolution resolution,
      Instant now) {
    if (UrlLifecycle.kindOf(state) != UrlKind.SITEMAP) {
      long originBudget = resolution.get(CrawlOption.MAX_PAGES_PER_ORIGIN);
      long siteBudget = resolution.get(CrawlOption.MAX_PAGES_PER_SITE);
      originState.setOriginBudget(originBudget);
      originState.setSiteBudget(siteBudget);
      if (originBudget >= 0 && originState.getAdmitted() >= originBudget) {
        return Admission.OVER_ORIGIN_BUDGET;
      }
      originState.setAdmitted(originState.getAdmitted() + 1);
      if (siteBudget >= 0) {
        reserve(url, state, now);
        return Admission.RESERVING;
      }
    }
    state.setStatus(UrlStatus.QUEUED);
    state.setBudgetRejected(false);
    stores.urls.put(url, state);
    stores.enqueue(origin, originState, url);
    return Admission.QUEUED;
  }

  /** The site's count lives in the partition of its key: the URL waits for its answer. */
  private void reserve(String url, UrlState state, Instant now) {
    state.setStatus(UrlStatus.RESERVING);
    stores.urls.put(url, state);
    DiscoveredUrl reserve =
        DiscoveredUrl.newBuilder()
            .setUrl(url)
            .setSourceUrl(state.getSourceUrl())
            .setDepth(state.getDepth())
            .setKind(UrlLifecycle.kindOf(state))
            .setDiscoveredAt(now)
            .setSiteBudget(SiteBudgetStep.RESERVE)
            .build();
    output.forward(FrontierTopology.DISCOVERED_SINK, siteKey(url), reserve, now);
  }

  /**
   * The state of a URL past a budget: done, FILTERED, known so that it is not decided again when
   * found again.
   */
  private static UrlState rejectedByBudget(UrlState state, String detail, Instant now) {
    state.setStatus(UrlStatus.DONE);
    state.setOutcome(Outcome.FILTERED.name());
    state.setDetail(detail);
    state.setDecidedAt(now);
    state.setBudgetRejected(true);
    return state;
  }

  /**
   * A step of admitting a URL under its site's budget. RESERVE comes to the partition of the site's
   * key, where the site's count is kept: a place is given while the count is under the budget. The
   * answer goes back to the URL's origin, where GRANTED queues the URL and DENIED logs it FILTERED
   * and gives the origin's place back. One partition decides for a site, so the budget is exact.
   */
  void onStep(@Nullable String key, DiscoveredUrl step) {
    Instant now = output.now();
    String url = step.getUrl();
    // a reservation comes keyed by its site, an answer by the URL's origin
    String origin = Origin.keyOf(url, key);
    if (step.getSiteBudget() == SiteBudgetStep.RESERVE) {
      String counter = SITE_ADMITTED + siteOf(url);
      Long counted = stores.control.get(counter);
      long admitted = counted == null ? 0 : counted;
      long budget = rules.option(CrawlOption.MAX_PAGES_PER_SITE, url, step.getDepth());
      boolean isGranted = budget < 0 || admitted < budget;
      if (isGranted) {
        stores.control.put(counter, admitted + 1);
      }
      step.setSiteBudget(isGranted ? SiteBudgetStep.GRANTED : SiteBudgetStep.DENIED);
      output.forward(FrontierTopology.DISCOVERED_SINK, origin, step, now);
      return;
    }
    UrlState state = stores.urls.get(url);
    if (state == null || state.getStatus() != UrlStatus.RESERVING) {
      return; // an answer that came twice: the URL moved on
    }
    OriginState originState = stores.originState(origin);
    if (step.getSiteBudget() == SiteBudgetStep.GRANTED) {
      state.setStatus(UrlStatus.QUEUED);
      state.setBudgetRejected(false);
      stores.urls.put(url, state);
      stores.enqueue(origin, originState, url);
      releases.release(origin, originState, now);
    } else {
      originState.setAdmitted(originState.getAdmitted() - 1);
      denied(origin, url, state, step, now);
    }
    stores.saveOrigin(origin, originState);
  }

  private void denied(String origin, String url, UrlState state, DiscoveredUrl step, Instant now) {
    Resolution resolution = rules.optionsFor(url, step.getDepth());
    String detail =
        "BUDGET_SITE "
            + siteOf(url)
            + " has admitted "
            + resolution.get(CrawlOption.MAX_PAGES_PER_SITE)
            + " URLs, the most max-pages-per-site allows";
    reject(origin, url, state, detail, CrawlOption.MAX_PAGES_PER_SITE, resolution, step, now);
  }

  /** A URL {@link #admit} did not admit: its origin's budget is spent. */
  void rejectOverOriginBudget(
      String origin,
      OriginState originState,
      String url,
      UrlState state,
      Resolution resolution,
      DiscoveredUrl discovered,
      Instant now) {
    String detail =
        "BUDGET_ORIGIN "
            + originState.getAdmitted()
            + " URLs of "
            + origin
            + " admitted, the most "
            + CrawlOption.MAX_PAGES_PER_ORIGIN.name()
            + " allows";
    reject(
        origin, url, state, detail, CrawlOption.MAX_PAGES_PER_ORIGIN, resolution, discovered, now);
  }

  /**
   * A URL past a budget is stored done and FILTERED (known, so that it is not decided again when
   * found again) and logged with the rule that set the budget.
   */
  private void reject(
      String origin,
      String url,
      UrlState state,
      String detail,
      CrawlOption<Long> budget,
      Resolution resolution,
      DiscoveredUrl discovered,
      Instant now) {
    String rule = budget.name() + " set by " + resolution.options().get(budget).setBy();
    stores.urls.put(url, rejectedByBudget(state, detail, now));
    output.log(
        origin,
        Decision.of(url, Outcome.FILTERED, detail).withRule(rule).withDepth(discovered.getDepth()),
        discovered,
        now);
  }

  /**
   * The key under which a site's budget is counted: a space, which no origin contains, then the
   * site.
   */
  static String siteKey(String url) {
    return "site " + siteOf(url);
  }

  /** A URL's site: the registered domain of its host (the host itself when it has none). */
  private static String siteOf(String url) {
    return Site.of(url);
  }
}
