package dev.crawler.frontier.streams;

import dev.crawler.common.url.Site;
import dev.crawler.events.OriginStats;
import dev.crawler.frontier.state.OriginState;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The figures of the task's origins: published on the compacted {@code crawl.stats} for the origins
 * that changed, every {@link FrontierProcessor#STATS_INTERVAL}, and kept in the frontier's gauges.
 */
final class OriginFigures {

  private final FrontierStores stores;
  private final FrontierOutput output;
  private final FrontierMetrics metrics;

  /** Origins of this task with figures in {@link #metrics}. */
  private final Set<String> reported = new HashSet<>();

  OriginFigures(FrontierStores stores, FrontierOutput output, FrontierMetrics metrics) {
    this.stores = stores;
    this.output = output;
    this.metrics = metrics;
  }

  /** The task's origins as stored, into the gauges (one pass over the origins at task start). */
  void reportStored() {
    Instant now = output.now();
    try (KeyValueIterator<String, OriginState> all = stores.origins.all()) {
      while (all.hasNext()) {
        KeyValue<String, OriginState> entry = all.next();
        metrics.update(stats(entry.key, entry.value, now));
        reported.add(entry.key);
      }
    }
    metrics.refresh();
  }

  /** Publishes on crawl.stats the figures of the origins that changed since the last time. */
  void publish(long wallClockMillis) {
    Set<String> changed = stores.takeChangedOrigins();
    if (changed.isEmpty()) {
      return;
    }
    Instant now = Instant.ofEpochMilli(wallClockMillis);
    for (String origin : changed) {
      OriginState state = stores.origins.get(origin);
      if (state != null) {
        OriginStats stats = stats(origin, state, now);
        output.forward(FrontierTopology.STATS_SINK, origin, stats, now);
        metrics.update(stats);
        reported.add(origin);
      }
    }
    metrics.refresh();
  }

  /** The task closes: its origins leave the gauges. */
  void forget() {
    metrics.forget(reported);
    reported.clear();
  }

  private static OriginStats stats(String origin, OriginState state, Instant now) {
    String site = Site.of(origin);
    return OriginStats.newBuilder()
        .setOrigin(origin)
        .setSite(site)
        .setInScope(state.getInScope())
        .setQueued(state.getTail() - state.getHead())
        .setInFlight(state.getInFlight())
        .setReleased(state.getReleased())
        .setPausedUntil(state.getPausedUntil())
        .setDelayMillis(state.getDelayMillis())
        .setAdmitted(state.getAdmitted())
        .setOriginBudget(state.getOriginBudget())
        .setSiteBudget(state.getSiteBudget())
        .setDone(new HashMap<>(state.getDone()))
        .setUpdatedAt(now)
        .build();
  }
}
