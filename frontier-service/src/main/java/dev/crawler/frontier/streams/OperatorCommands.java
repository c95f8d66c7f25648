package dev.crawler.frontier.streams;

import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.Acknowledgement;
import dev.crawler.events.AcknowledgerRole;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.Outcome;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator asks of every frontier task through {@code crawl.control}: clear the errors
 * (blacklisted URLs may be queued again), recrawl every known URL ({@code --force-recrawl}), end a
 * recrawl by handling its orphans, and pause, resume, block, unblock or set the delay of origins
 * ({@link OperatorHolds}, kept in the task's state so a task that moves keeps them). Each command
 * is acknowledged in {@code crawl.log} by the task, naming the command, who issued it and the
 * configuration version.
 */
final class OperatorCommands {

  private static final Logger LOG = LoggerFactory.getLogger(OperatorCommands.class);

  private final TaskRules rules;
  private final FrontierStores stores;
  private final FrontierOutput output;
  private final Releases releases;
  private final SiteBudgets budgets;
  private final OperatorHolds holds;
  private final String configVersion;
  private final String task;

  /** The operator store's key of the configuration version the delays were set under. */
  static final String CONFIG_VERSION_KEY = "~config-version";

  OperatorCommands(
      TaskRules rules,
      FrontierStores stores,
      FrontierOutput output,
      Releases releases,
      SiteBudgets budgets,
      OperatorHolds holds,
      String configVersion,
      String task) {
    this.rules = rules;
    this.stores = stores;
    this.output = output;
    this.releases = releases;
    this.budgets = budgets;
    this.holds = holds;
    this.configVersion = configVersion;
    this.task = task;
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
    switch (command.getCommand()) {
      case PAUSE, RESUME, BLOCK, UNBLOCK, SET_DELAY -> hold(command);
      case CLEAR_COOKIES -> acknowledge(command, "nothing to do here: the fetchers drop them");
      default -> {}
    }
  }

  private void hold(ControlCommand command) {
    Optional<OperatorHolds.Hold> wanted = OperatorHolds.Hold.of(command);
    if (wanted.isEmpty()) {
      acknowledge(command, "ignored: no target");
      return;
    }
    OperatorHolds.Hold hold = wanted.get();
    if (holds.apply(hold).isEmpty()) {
      acknowledge(command, "a newer command about " + hold.target() + " is in force");
      return;
    }
    stores.saveHold(hold);
    if (hold.kind() == OperatorHolds.Kind.DELAY) {
      stores.operator.put(CONFIG_VERSION_KEY, configVersion);
    }
    Instant now = output.now();
    int affected = 0;
    if (hold.kind() == OperatorHolds.Kind.BLOCK && hold.isOn() && hold.value() == 1) {
      affected = dropDocuments(hold, now);
    }
    if (!hold.isOn() || hold.kind() == OperatorHolds.Kind.DELAY) {
      // resumed, unblocked, or another delay: the origins' queues go on at once
      Map<String, OriginState> changed = new HashMap<>();
      try (KeyValueIterator<String, OriginState> all = stores.origins.all()) {
        while (all.hasNext()) {
          KeyValue<String, OriginState> entry = all.next();
          if (OperatorHolds.covers(hold.target(), entry.key)) {
            if (!hold.isOn()) {
              // the fetcher gave the origin's requests back while it was held: the operator's
              // word ends that wait (the fetcher's own politeness still applies)
              entry.value.setPausedUntil(Instant.EPOCH);
            }
            changed.put(entry.key, entry.value);
          }
        }
      }
      releases.releaseAll(changed, now);
    }
    acknowledge(
        command,
        affected > 0 ? affected + " URLs decided FILTERED, their documents deleted" : "applied");
  }

  /**
   * A block with its documents deleted: every URL of the target's origins that is not in flight is
   * decided FILTERED (a queued one leaves the queue, a published document is deleted by the
   * committer); one in flight follows when its outcome comes.
   */
  private int dropDocuments(OperatorHolds.Hold hold, Instant now) {
    List<KeyValue<String, UrlState>> known = new ArrayList<>();
    try (KeyValueIterator<String, UrlState> all = stores.urls.all()) {
      while (all.hasNext()) {
        KeyValue<String, UrlState> entry = all.next();
        UrlStatus status = entry.value.getStatus();
        if (status != UrlStatus.IN_FLIGHT
            && !Outcome.FILTERED.name().equals(entry.value.getOutcome())
            && OperatorHolds.covers(hold.target(), Origin.keyOf(entry.key))) {
          known.add(entry);
        }
      }
    }
    for (KeyValue<String, UrlState> entry : known) {
      blockedWithDocuments(Origin.keyOf(entry.key), entry.key, entry.value, now);
    }
    return known.size();
  }

  /** Decides a URL of an origin blocked with its documents FILTERED. */
  void blockedWithDocuments(String origin, String url, UrlState state, Instant now) {
    Optional<OperatorHolds.Hold> block = holds.newest(OperatorHolds.Kind.BLOCK, origin);
    String by = block.map(OperatorHolds.Hold::issuedBy).orElse("an operator");
    if (state.getDueAt().toEpochMilli() > 0) {
      stores.due.delete(FrontierStores.dueKey(state.getDueAt(), url));
      state.setDueAt(Instant.EPOCH);
    }
    decide(
        origin,
        url,
        state,
        Decision.of(url, Outcome.FILTERED, "blocked by " + by)
            .withDepth(state.getDepth())
            .withRule("operator block --delete-documents"),
        now);
  }

  /**
   * A delay an operator set lasts until the configuration changes: set under another version than
   * the one this task runs, it is dropped (and logged).
   */
  void expireDelaysOfAnotherConfiguration() {
    String setUnder = stores.operator.get(CONFIG_VERSION_KEY);
    if (setUnder == null || !OperatorHolds.delayEndsWith(setUnder, configVersion)) {
      return;
    }
    for (OperatorHolds.Hold hold : holds.inForce()) {
      if (hold.kind() == OperatorHolds.Kind.DELAY) {
        OperatorHolds.Hold reset =
            new OperatorHolds.Hold(
                hold.kind(),
                hold.target(),
                false,
                0,
                hold.issuedAt() + 1,
                hold.commandId(),
                "configuration " + configVersion);
        holds.apply(reset);
        stores.saveHold(reset);
        LOG.info(
            "{}: the delay of {} ms set by {} ends: the configuration changed ({} to {})",
            hold.target(),
            hold.value(),
            hold.issuedBy(),
            setUnder,
            configVersion);
      }
    }
    stores.operator.put(CONFIG_VERSION_KEY, configVersion);
  }

  /**
   * Logs in crawl.log that this task decides with another configuration from now on (an operator
   * applied it): every later decision names it.
   */
  void configurationInForce(String before, String appliedBy, String appliedVersion) {
    String detail =
        "configuration "
            + configVersion
            + " in force, applied by "
            + appliedBy
            + " (was "
            + before
            + ") (frontier task "
            + task
            + ")";
    output.logOnly(
        "config",
        Decision.of("config", Outcome.OPERATOR, detail)
            .withRule("operator config apply")
            .withAcknowledgement(
                new Acknowledgement(
                    ControlTopic.configCommandId(appliedVersion),
                    AcknowledgerRole.FRONTIER_TASK,
                    task)),
        output.now());
    LOG.info("{}", detail);
  }

  /** Logs in crawl.log that this task applied the command: who issued it, when, what it did. */
  private void acknowledge(ControlCommand command, String what) {
    Decision decision =
        ControlTopic.acknowledgement(
            command,
            what + " (frontier task " + task + ", configuration " + configVersion + ")",
            AcknowledgerRole.FRONTIER_TASK,
            task);
    output.logOnly(decision.url(), decision, output.now());
    LOG.info("{}: {}", decision.url(), decision.detail().orElse(""));
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
    Resolution resolution = rules.decideAgain(url, origin, originState.getInScope(), state);
    state.setDecidedUnder(rules.version());
    UrlKind kind = UrlLifecycle.kindOf(state);
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
        && kind != UrlKind.SEED
        && kind != UrlKind.SITEMAP
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
   * The recrawl is over: URLs still waiting to be linked again are orphans, handled by their
   * orphans option: ignore leaves them (their documents stay), delete sends an {@code ORPHAN}
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
      switch (rules.option(CrawlOption.ORPHANS, url, state.getDepth())) {
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
