package dev.crawler.frontier.streams;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.frontier.state.Lease;
import dev.crawler.frontier.state.OriginState;
import dev.crawler.frontier.state.UrlState;
import dev.crawler.frontier.state.UrlStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The frontier task's state stores and their keys: every URL's state, every origin's state and
 * queue, the leases of requests in flight, the due-time index of refreshes, the control values
 * (errors cleared, site counts). Tracks the origins whose state changed, for their figures.
 */
final class FrontierStores {

  /** The control store's key for when errors were last cleared. */
  static final String ERRORS_CLEARED_AT = "errors-cleared-at";

  final KeyValueStore<String, UrlState> urls;
  final KeyValueStore<String, OriginState> origins;
  final KeyValueStore<String, String> queue;
  final KeyValueStore<String, Lease> leases;
  final KeyValueStore<String, Long> control;
  final KeyValueStore<String, String> due;
  final KeyValueStore<String, String> operator;

  /** Origins whose state changed since their figures were last published. */
  private Set<String> changedOrigins = new HashSet<>();

  FrontierStores(ProcessorContext<?, ?> context) {
    this.urls = context.getStateStore(FrontierTopology.URLS_STORE);
    this.origins = context.getStateStore(FrontierTopology.ORIGINS_STORE);
    this.queue = context.getStateStore(FrontierTopology.QUEUE_STORE);
    this.leases = context.getStateStore(FrontierTopology.LEASES_STORE);
    this.control = context.getStateStore(FrontierTopology.CONTROL_STORE);
    this.due = context.getStateStore(FrontierTopology.DUE_STORE);
    this.operator = context.getStateStore(FrontierTopology.OPERATOR_STORE);
  }

  /** The origin's stored state, or a fresh one. */
  OriginState originState(String origin) {
    OriginState state = origins.get(origin);
    return state != null ? state : OriginState.newBuilder().build();
  }

  /** Stores an origin's state; its figures are published at the next stats tick. */
  void saveOrigin(String origin, OriginState state) {
    origins.put(origin, state);
    changedOrigins.add(origin);
  }

  /** The origins whose state changed since the last call. */
  Set<String> takeChangedOrigins() {
    Set<String> changed = changedOrigins;
    changedOrigins = new HashSet<>();
    return changed;
  }

  /** Appends a URL to its origin's queue. */
  void enqueue(String origin, OriginState originState, String url) {
    queue.put(queueKey(origin, originState.getTail()), url);
    originState.setTail(originState.getTail() + 1);
  }

  /**
   * Queues a known URL to be fetched once more (a due time, a recrawl): a fresh round of attempts.
   */
  void requeue(String origin, OriginState originState, String url, UrlState state) {
    if (state.getDueAt().toEpochMilli() > 0) {
      due.delete(dueKey(state.getDueAt(), url));
    }
    state.setDueAt(Instant.EPOCH);
    state.setAwaitingLinkSince(Instant.EPOCH);
    state.setStatus(UrlStatus.QUEUED);
    state.setAttempt(0);
    urls.put(url, state);
    enqueue(origin, originState, url);
  }

  /** What operators hold, as this task stored it. */
  OperatorHolds loadHolds() {
    return FrontierTopology.holdsIn(operator);
  }

  /** Stores a hold an operator's command set. */
  void saveHold(OperatorHolds.Hold hold) {
    operator.put(OperatorHolds.key(hold.kind(), hold.target()), hold.encode());
  }

  /** When an operator last cleared the errors, in epoch milliseconds; 0 when never. */
  long errorsClearedAt() {
    Long cleared = control.get(ERRORS_CLEARED_AT);
    return cleared == null ? 0 : cleared;
  }

  /** The URLs of this task whose state matches (one pass over the store, for operator commands). */
  List<KeyValue<String, UrlState>> urlsWhere(Predicate<UrlState> filter) {
    List<KeyValue<String, UrlState>> matching = new ArrayList<>();
    try (KeyValueIterator<String, UrlState> all = urls.all()) {
      while (all.hasNext()) {
        KeyValue<String, UrlState> entry = all.next();
        if (filter.test(entry.value)) {
          matching.add(entry);
        }
      }
    }
    return matching;
  }

  /**
   * The queue entry key: the origin, a space (which no origin contains), the zero-padded sequence
   * number.
   */
  static String queueKey(String origin, long sequence) {
    String digits = Long.toString(sequence);
    return origin + ' ' + "0".repeat(19 - digits.length()) + digits;
  }

  /** The lease entry key: the origin, a space, the request id. */
  static String leaseKey(String origin, String requestId) {
    return origin + ' ' + requestId;
  }

  /** The due-time index key: zero-padded epoch millis, a space, the URL. */
  static String dueKey(Instant dueAt, String url) {
    String digits = Long.toString(dueAt.toEpochMilli());
    return "0".repeat(Math.max(0, 19 - digits.length())) + digits + ' ' + url;
  }
}
