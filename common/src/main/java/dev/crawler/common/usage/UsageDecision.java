package dev.crawler.common.usage;

import java.util.Optional;

/**
 * What a {@link UsageRequirement} decided about one document.
 *
 * @param verdict what the site's statements say of the required use
 * @param refusedBy the first statement in force that disallows the use, for {@link
 *     Verdict#REFUSED}; empty otherwise
 * @param passes whether the document passes the requirement
 */
public record UsageDecision(Verdict verdict, Optional<UsageStatement> refusedBy, boolean passes) {

  /** What the site's statements say of the required use. */
  public enum Verdict {
    /** A statement allows the use and none disallows it. */
    ALLOWED,
    /** A statement disallows the use. */
    REFUSED,
    /** No statement speaks of the use. */
    NOT_STATED
  }
}
