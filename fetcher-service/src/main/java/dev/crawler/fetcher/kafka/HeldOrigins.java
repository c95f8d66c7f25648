package dev.crawler.fetcher.kafka;

import dev.crawler.common.control.OperatorHolds;
import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.schemas.options.RequestOptions;
import java.util.Optional;

/**
 * What operators' holds mean for the requests waiting here: whether an origin is paused or blocked,
 * and by whom; how long the requests a hold gives back ask the frontier to wait; and the delay an
 * operator set, which replaces the one a request released before the command carries.
 */
final class HeldOrigins {

  /**
   * How long a request an operator's pause or block gives back asks the frontier to wait: the
   * frontier holds the origin by the same command, so this only spaces a retry if it has not seen
   * the command yet.
   */
  static final long OPERATOR_HOLD_MILLIS = 1_000;

  private final OperatorHolds holds;
  private final OperatorView operators;

  HeldOrigins(OperatorView operators) {
    this.holds = operators.holds();
    this.operators = operators;
  }

  /**
   * Why a waiting request goes back to the frontier instead of being fetched: it was released under
   * a configuration an operator has replaced since ({@link
   * OperatorView#isOfReplacedConfiguration}); empty when it goes ahead.
   */
  Optional<String> replacedConfiguration(Pending pending) {
    String version = RequestOptions.CONFIG_VERSION.readFrom(pending.request().getOptions());
    if (!operators.isOfReplacedConfiguration(version, pending.request().getReleasedAt())) {
      return Optional.empty();
    }
    return Optional.of(
        "released under configuration "
            + version
            + ", replaced by "
            + operators.appliedVersion().orElse("another")
            + ": decided again");
  }

  /** Whether an operator paused or blocked the origin. */
  boolean isHeld(String origin) {
    return holds.isHeld(origin);
  }

  /** Who holds the origin, and how: {@code blocked by …} or {@code paused by …}. */
  String heldBy(String origin) {
    OperatorHolds.Hold hold =
        holds
            .newest(OperatorHolds.Kind.BLOCK, origin)
            .filter(OperatorHolds.Hold::isOn)
            .or(() -> holds.newest(OperatorHolds.Kind.PAUSE, origin))
            .orElseThrow();
    return (hold.kind() == OperatorHolds.Kind.BLOCK ? "blocked" : "paused")
        + " by "
        + hold.issuedBy();
  }

  /**
   * The options a request goes with: its own, with the delay an operator set for its origin when
   * the request was released before the command.
   */
  FetchOptions options(String origin, Pending pending) {
    Optional<OperatorHolds.Hold> delay =
        holds.delayForRequest(origin, pending.request().getReleasedAt().toEpochMilli());
    return delay.isEmpty() ? pending.options() : pending.options().withDelay(delay.get().value());
  }
}
