package dev.crawler.common.usage;

/**
 * What is stated about one category of use. Nothing stated is not permission: {@link #NOT_STATED}
 * is its own value, and a caller decides what it means ({@link UsageRequirement}).
 */
public enum Preference {
  /** A statement allows the use. */
  STATED_ALLOWED,
  /** A statement disallows the use. */
  STATED_DISALLOWED,
  /** No statement speaks of the use. */
  NOT_STATED;

  /**
   * The more restrictive of two preferences, the rule of the aipref vocabulary for combining
   * statements (draft-ietf-aipref-vocab, "Combining Preferences"): disallowed over allowed, allowed
   * over not stated.
   */
  public Preference and(Preference other) {
    if (this == STATED_DISALLOWED || other == STATED_DISALLOWED) {
      return STATED_DISALLOWED;
    }
    if (this == STATED_ALLOWED || other == STATED_ALLOWED) {
      return STATED_ALLOWED;
    }
    return NOT_STATED;
  }
}
