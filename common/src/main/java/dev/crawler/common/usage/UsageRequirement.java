package dev.crawler.common.usage;

import java.util.Objects;
import java.util.Optional;

/**
 * An operator's requirement that a document allow one use ("publish only what allows AI training"),
 * and the decision it makes about a document.
 *
 * @param use the use the document must allow
 * @param notStatedPasses whether a document whose site states nothing about the use passes (nothing
 *     stated is not permission; the operator decides)
 */
public record UsageRequirement(UseCategory use, boolean notStatedPasses) {

  /** Checks its arguments. */
  public UsageRequirement {
    Objects.requireNonNull(use, "use");
  }

  /** What the site's statements say of the required use, and whether the document passes. */
  public UsageDecision decide(UsagePreferences preferences) {
    return switch (preferences.preferenceFor(use)) {
      case STATED_ALLOWED ->
          new UsageDecision(UsageDecision.Verdict.ALLOWED, Optional.empty(), true);
      case STATED_DISALLOWED ->
          new UsageDecision(
              UsageDecision.Verdict.REFUSED, preferences.disallowingStatement(use), false);
      case NOT_STATED ->
          new UsageDecision(UsageDecision.Verdict.NOT_STATED, Optional.empty(), notStatedPasses);
    };
  }

  /** Whether the document passes: its site allows the use, or states nothing and that passes. */
  public boolean isMetBy(UsagePreferences preferences) {
    return decide(preferences).passes();
  }
}
