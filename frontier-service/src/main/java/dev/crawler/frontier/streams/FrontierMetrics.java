package dev.crawler.frontier.streams;

import dev.crawler.events.OriginStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The frontier's gauges, from the figures its tasks publish on crawl.stats: totals over the origins
 * this instance owns (queued, in flight, paused, origins), and per origin the queue depth, requests
 * in flight and current delay of the {@link #TOP_ORIGINS} origins with the longest queues, so the
 * number of series stays bounded however many origins are crawled. Shared by the instance's tasks;
 * thread-safe.
 */
final class FrontierMetrics {

  /** How many origins get series of their own. */
  static final int TOP_ORIGINS = 20;

  /** The latest figures of every origin this instance's tasks own. */
  private final Map<String, OriginStats> latest = new ConcurrentHashMap<>();

  private final MultiGauge originQueued;
  private final MultiGauge originInFlight;
  private final MultiGauge originDelay;

  FrontierMetrics(MeterRegistry registry) {
    Gauge.builder("crawler.frontier.queued", this, m -> m.sum(stats -> stats.getQueued()))
        .description("URLs queued in the frontier, over all origins")
        .register(registry);
    Gauge.builder("crawler.frontier.in.flight", this, m -> m.sum(stats -> stats.getInFlight()))
        .description("Fetch requests released and not yet ended")
        .register(registry);
    Gauge.builder("crawler.frontier.origins", this, m -> m.latest.size())
        .description("Origins known to this frontier instance")
        .register(registry);
    Gauge.builder("crawler.frontier.origins.paused", this, m -> m.paused(Instant.now()))
        .description("Origins held by the frontier (the fetcher asked to come back later)")
        .register(registry);
    this.originQueued =
        MultiGauge.builder("crawler.frontier.origin.queued")
            .description("URLs queued, for the origins with the longest queues")
            .register(registry);
    this.originInFlight =
        MultiGauge.builder("crawler.frontier.origin.in.flight")
            .description("Requests in flight, for the origins with the longest queues")
            .register(registry);
    this.originDelay =
        MultiGauge.builder("crawler.frontier.origin.delay")
            .description("Current delay between requests, for the origins with the longest queues")
            .baseUnit("seconds")
            .register(registry);
  }

  /** An origin's latest figures. */
  void update(OriginStats stats) {
    latest.put(stats.getOrigin(), stats);
  }

  /** The origins of a task that moved elsewhere: their figures are the new owner's to report. */
  void forget(Iterable<String> origins) {
    origins.forEach(latest::remove);
  }

  /**
   * Recomputes the per-origin series: one pass over the origins, O(origins × log {@link
   * #TOP_ORIGINS}).
   */
  void refresh() {
    List<OriginStats> top = top(TOP_ORIGINS);
    originQueued.register(rows(top, stats -> stats.getQueued()), true);
    originInFlight.register(rows(top, stats -> stats.getInFlight()), true);
    originDelay.register(
        rows(top, stats -> stats.getDelayMillis() < 0 ? 0 : stats.getDelayMillis() / 1000.0), true);
  }

  /** The {@code n} origins with the longest queues, longest first. */
  List<OriginStats> top(int n) {
    Comparator<OriginStats> byQueue = Comparator.comparingLong(OriginStats::getQueued);
    PriorityQueue<OriginStats> smallest = new PriorityQueue<>(byQueue);
    for (OriginStats stats : latest.values()) {
      smallest.add(stats);
      if (smallest.size() > n) {
        smallest.poll();
      }
    }
    List<OriginStats> top = new ArrayList<>(smallest);
    top.sort(byQueue.reversed().thenComparing(OriginStats::getOrigin));
    return top;
  }

  private static List<MultiGauge.Row<?>> rows(
      List<OriginStats> top, ToDoubleFunction<OriginStats> value) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>(top.size());
    for (OriginStats stats : top) {
      double figure = value.applyAsDouble(stats);
      rows.add(MultiGauge.Row.of(Tags.of("origin", stats.getOrigin()), figure));
    }
    return rows;
  }

  private double sum(ToDoubleFunction<OriginStats> value) {
    double sum = 0;
    for (OriginStats stats : latest.values()) {
      sum += value.applyAsDouble(stats);
    }
    return sum;
  }

  private double paused(Instant now) {
    return latest.values().stream().filter(stats -> stats.getPausedUntil().isAfter(now)).count();
  }
}
