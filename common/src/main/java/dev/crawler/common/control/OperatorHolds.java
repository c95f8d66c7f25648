package dev.crawler.common.control;

import dev.crawler.common.url.Site;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.schemas.options.RequestOptions;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What operators hold on a running crawl: origins paused, blocked, or given another delay, each by
 * the latest command about it. A command is about an origin, a site (every origin of a registered
 * domain, {@code site:example.org}) or everything ({@code *}); for each origin the newest command
 * of each kind among the three wins, so {@code pause --all} then {@code resume ORIGIN} leaves that
 * origin running and the others paused. Commands are ordered by when they were issued, then by
 * their id, so every frontier task and every fetcher that sees the same commands, in whatever
 * order, holds the same. Not thread-safe.
 */
public final class OperatorHolds {

  /** What a command holds. */
  public enum Kind {
    PAUSE,
    BLOCK,
    DELAY
  }

  /** The target that means every origin. */
  public static final String ALL = "*";

  /** The prefix of a site's target. */
  public static final String SITE_PREFIX = "site:";

  /**
   * The latest command of one kind about one target.
   *
   * @param isOn paused, blocked, or a delay set (false: resumed, unblocked, delay reset)
   * @param value BLOCK: 1 when documents are deleted; DELAY: the delay in milliseconds
   */
  public record Hold(
      Kind kind,
      String target,
      boolean isOn,
      long value,
      long issuedAt,
      String commandId,
      String issuedBy) {

    private static final Comparator<Hold> NEWEST =
        Comparator.comparingLong(Hold::issuedAt).thenComparing(Hold::commandId);

    boolean isNewerThan(Hold other) {
      return NEWEST.compare(this, other) > 0;
    }

    /** The hold a command sets, or none when it is not about origins. */
    public static Optional<Hold> of(ControlCommand command) {
      if (command.getTarget().isEmpty()) {
        return Optional.empty();
      }
      ControlCommandType type = command.getCommand();
      OperatorHolds.Kind kind;
      boolean isOn;
      long value = 0;
      switch (type) {
        case PAUSE, RESUME -> {
          kind = OperatorHolds.Kind.PAUSE;
          isOn = type == ControlCommandType.PAUSE;
        }
        case BLOCK, UNBLOCK -> {
          kind = OperatorHolds.Kind.BLOCK;
          isOn = type == ControlCommandType.BLOCK;
          value = isOn && command.getDeleteDocuments() ? 1 : 0;
        }
        case SET_DELAY -> {
          kind = OperatorHolds.Kind.DELAY;
          isOn = command.getDelayMillis() >= 0;
          value = Math.max(0, Math.min(RequestOptions.MAX_DELAY_MS, command.getDelayMillis()));
        }
        default -> {
          return Optional.empty();
        }
      }
      return Optional.of(
          new Hold(
              kind,
              command.getTarget(),
              isOn,
              value,
              command.getIssuedAt().toEpochMilli(),
              command.getCommandId(),
              command.getIssuedBy()));
    }

    /** The hold as one line of text (what the frontier's store keeps). */
    public String encode() {
      return String.join(
          "\t",
          kind.name(),
          target,
          Boolean.toString(isOn),
          Long.toString(value),
          Long.toString(issuedAt),
          commandId,
          issuedBy.replace('\t', ' '));
    }

    /** A hold from its line of text. */
    public static Hold decode(String text) {
      String[] fields = text.split("\t", 7);
      return new Hold(
          Kind.valueOf(fields[0]),
          fields[1],
          Boolean.parseBoolean(fields[2]),
          Long.parseLong(fields[3]),
          Long.parseLong(fields[4]),
          fields[5],
          fields.length > 6 ? fields[6] : "");
    }
  }

  private final Map<String, Hold> holds = new HashMap<>();

  /** How many of the holds are on: none, and no origin is held (checked per request). */
  private int inForceCount;

  /** The key of a hold: its kind and target. */
  public static String key(Kind kind, String target) {
    return kind.name() + " " + target;
  }

  /**
   * Takes a command into account.
   *
   * @return the hold it set, or empty when a newer command about the same target and kind is known
   *     (the command changes nothing)
   */
  public Optional<Hold> apply(Hold hold) {
    String key = key(hold.kind(), hold.target());
    Hold current = holds.get(key);
    if (current != null && !hold.isNewerThan(current)) {
      return Optional.empty();
    }
    holds.put(key, hold);
    inForceCount += (hold.isOn() ? 1 : 0) - (current != null && current.isOn() ? 1 : 0);
    return Optional.of(hold);
  }

  /** Whether the origin may get no request: paused or blocked. */
  public boolean isHeld(String origin) {
    return isOn(Kind.PAUSE, origin) || isOn(Kind.BLOCK, origin);
  }

  /** Whether the origin is paused. */
  public boolean isPaused(String origin) {
    return isOn(Kind.PAUSE, origin);
  }

  /** Whether the origin is blocked with its documents deleted. */
  public boolean deletesDocumentsOf(String origin) {
    return newest(Kind.BLOCK, origin).filter(h -> h.isOn() && h.value() == 1).isPresent();
  }

  /** The delay an operator set for the origin, when one is in force. */
  public Optional<Hold> delayOf(String origin) {
    return newest(Kind.DELAY, origin).filter(Hold::isOn);
  }

  /**
   * The delay an operator set that a request to the origin released at {@code releasedAtMillis}
   * must keep, beyond what its own options say. The one rule of an operator's delay: it holds from
   * its command until the crawl configuration changes ({@link #delayEndsWith}). A request released
   * after the command carries it in its options (the frontier resolves them with the holds); one
   * released before gets it here, where it waits.
   */
  public Optional<Hold> delayForRequest(String origin, long releasedAtMillis) {
    if (holds.isEmpty()) {
      return Optional.empty();
    }
    return delayOf(origin).filter(delay -> releasedAtMillis < delay.issuedAt());
  }

  /**
   * Whether the delays set while configuration {@code setUnder} was in force end now that {@code
   * inForce} is: a new configuration decides the origins' delays again.
   */
  public static boolean delayEndsWith(String setUnder, String inForce) {
    return !setUnder.equals(inForce);
  }

  /** The delay in milliseconds an operator set for the origin, when one is in force. */
  public OptionalLong delayMillisOf(String origin) {
    Optional<Hold> delay = delayOf(origin);
    return delay.isPresent() ? OptionalLong.of(delay.get().value()) : OptionalLong.empty();
  }

  /** The newest hold of a kind that applies to the origin, on or off. */
  public Optional<Hold> newest(Kind kind, String origin) {
    Hold newest = null;
    for (String target : targetsOf(origin)) {
      Hold hold = holds.get(key(kind, target));
      if (hold != null && (newest == null || hold.isNewerThan(newest))) {
        newest = hold;
      }
    }
    return Optional.ofNullable(newest);
  }

  /** Whether a target names the origin (itself, its site, or everything). */
  public static boolean covers(String target, String origin) {
    return targetsOf(origin).contains(target);
  }

  /** Whether any hold is on (a fast check before per-origin lookups). */
  public boolean isEmpty() {
    return inForceCount == 0;
  }

  /** The holds in force, newest first, for status. */
  public List<Hold> inForce() {
    return holds.values().stream().filter(Hold::isOn).sorted(Hold.NEWEST.reversed()).toList();
  }

  private boolean isOn(Kind kind, String origin) {
    if (inForceCount == 0) {
      return false; // the common case: no site lookup per request
    }
    return newest(kind, origin).map(Hold::isOn).orElse(false);
  }

  private static List<String> targetsOf(String origin) {
    return List.of(origin, SITE_PREFIX + siteOf(origin), ALL);
  }

  /** The registered domain of an origin ({@code https://www.example.org:8443} → example.org). */
  public static String siteOf(String origin) {
    return Site.of(origin);
  }
}
