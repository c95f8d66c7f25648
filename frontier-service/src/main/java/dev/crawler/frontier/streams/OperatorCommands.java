package dev.crawler.frontier.streams;

import dev.crawler.common.decision.Decision;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.Outcome;
import dev.crawler.events.UrlKind;
import dev.crawler.frontier.domain.UrlLifecycle;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import dev.crawler.schemas.Origin;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator asks of every frontier task through {@code crawl.control}: clear the errors
 * (blacklisted URLs may be queued again, seed 001), recrawl every known URL ({@code
 * --force-recrawl}), and end a recrawl by handling its orphans (seed 002). Each is one pass over
 * the task's URLs.
 */
final class OperatorCommands {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorCommands.class);

  private final RuleEngine rules;
  private final FrontierStores stores;
  private final FrontierOutput output;
  private final Releases releases;
  private final SiteBudgets budgets;
  private final KnownUrlRules rulesForKnown;

  /** How the rules decide a known URL again, in the scope the task knows for its origin. */
  @FunctionalInterface
  interface KnownUrlRules {
    Resolution resolve(String url, String origin, OriginState originState, UrlState state);
  }

  OperatorCommands(
      RuleEngine rules,
      FrontierStores stores,
      FrontierOutput output,
      Releases releases,
      SiteBudgets budgets,
      KnownUrlRules rulesForKnown) {
    this.rules = rules;
    this.stores = stores;
    this.output = output;
    this.releases = releases;
    this.budgets = budgets;
    this.rulesForKnown = rulesForKnown;
  }

  void on(ControlCommand command, long wallClockMillis) {
    if (command.getCommand() == ControlCommandType.RECRAWL_ALL) {
      recrawlAll(command);
    }
    if (command.getCommand() == ControlCommandType.RECRAWL_ORPHANS) {
      handleOrphans(command);
    }
    if (command.getCommand() == ControlCommandType.CLEAR_ERRORS) {
      stores.control.put(FrontierStores.ERRORS_CLEARED_AT, wallClockMillis);
      LOG.info(
          "errors cleared by {}: blacklisted URLs are queued again when next discovered",
          command.getIssuedBy());
    }
  }

  /**
   * Every URL this task knows that is not waiting or in flight is decided again by the crawl
   * configuration: still crawled, it is queued to be fetched once more (its document is then
   * updated, unchanged or deleted by what the fetch says); now filtered or out of scope, its
   * outcome goes to the committer, which deletes a published document.
   */
  private void recrawlAll(ControlCommand command) {
    Instant now = output.now();
    List<KeyValue<String, UrlState>> known =
        stores.urlsWhere(
            state -> state.getStatus() == UrlStatus.DONE || state.getStatus() == UrlStatus.ERROR);
    Map<String, OriginState> changed = new HashMap<>();
    int queued = 0;
    for (KeyValue<String, UrlState> entry : known) {
      String url = entry.key;
      String origin = Origin.keyOf(url);
      OriginState originState = changed.computeIfAbsent(origin, stores::originState);
      if (recrawl(origin, originState, url, entry.value, now)) {
        queued++;
      }
    }
    releases.releaseAll(changed, now);
    LOG.info(
        "recrawl of every known URL asked by {}: {} of {} queued again",
        command.getIssuedBy(),
        queued,
        known.size());
  }

  /** Decides a known URL again for a recrawl; returns whether it is queued to be fetched. */
  private boolean recrawl(
      String origin, OriginState originState, String url, UrlState state, Instant now) {
    Resolution resolution = rulesForKnown.resolve(url, origin, originState, state);
    boolean isSeed = UrlKind.SEED.name().equals(state.getKind());
    boolean isSitemap = UrlKind.SITEMAP.name().equals(state.getKind());
    if (state.getBudgetRejected()) {
      // never admitted: admitted now if the budgets allow (raised since), else left as it is
      return resolution.isCrawled()
          && budgets.admit(origin, originState, url, state, resolution, now)
              != SiteBudgets.Admission.OVER_ORIGIN_BUDGET;
    }
    if (!resolution.isCrawled()) {
      if (resolution.outcome().isPresent()
          && !resolution.outcome().get().name().equals(state.getOutcome())) {
        // newly filtered or out of scope: the committer deletes a published document
        Decision decision =
            Decision.of(url, resolution.outcome().get(), resolution.detail().orElse(null))
                .withDepth(state.getDepth());
        decide(origin, url, state, resolution.rule().map(decision::withRule).orElse(decision), now);
      }
      return false;
    }
    if (state.getStatus() == UrlStatus.DONE
        && !isSeed
        && !isSitemap
        && resolution.get(CrawlOption.ORPHANS) != CrawlOption.Orphans.PROCESS) {
      // orphans ignore or delete: fetched again only when a page links to it during the recrawl
      state.setAwaitingLinkSince(now);
      stores.urls.put(url, state);
      return false;
    }
    stores.requeue(origin, originState, url, state);
    return true;
  }

  /**
   * The recrawl is over: URLs still waiting to be linked again are orphans (seed 002), handled by
   * their orphans option: ignore leaves them (their documents stay), delete sends an {@code ORPHAN}
   * outcome to the committer, which deletes their documents, process fetches them again after all.
   */
  private void handleOrphans(ControlCommand command) {
    Instant now = output.now();
    List<KeyValue<String, UrlState>> waiting =
        stores.urlsWhere(
            state -> state.getStatus() == UrlStatus.DONE && UrlLifecycle.isAwaitingLink(state));
    Map<String, OriginState> changed = new HashMap<>();
    for (KeyValue<String, UrlState> entry : waiting) {
      String url = entry.key;
      UrlState state = entry.value;
      String origin = Origin.keyOf(url);
      state.setAwaitingLinkSince(Instant.EPOCH);
      switch (rules.optionsFor(url, state.getDepth()).get(CrawlOption.ORPHANS)) {
        case PROCESS ->
            stores.requeue(
                origin, changed.computeIfAbsent(origin, stores::originState), url, state);
        case DELETE ->
            decide(
                origin,
                url,
                state,
                Decision.of(url, Outcome.ORPHAN, "no page links to it any more")
                    .withDepth(state.getDepth())
                    .withRule("orphans: delete"),
                now);
        case IGNORE -> stores.urls.put(url, state);
      }
    }
    releases.releaseAll(changed, now);
    LOG.info("recrawl over ({}): {} orphans", command.getIssuedBy(), waiting.size());
  }

  /**
   * A known URL is decided without a fetch: its state says so, and the outcome goes to the
   * committer and the log.
   */
  private void decide(String origin, String url, UrlState state, Decision decision, Instant now) {
    state.setStatus(UrlStatus.DONE);
    state.setOutcome(decision.outcome().name());
    state.setDetail(decision.detail().orElse(null));
    state.setDecidedAt(now);
    stores.urls.put(url, state);
    output.emit(origin, decision, now);
  }
}
