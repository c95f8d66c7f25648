package dev.crawler.frontier.domain;

import dev.crawler.events.Outcome;

/**
 * What the frontier does with a discovered URL: queue it, reject it with an outcome that is logged, or
 * nothing because it is known already (the first state takes precedence).
 */
public sealed interface Admission {

  /** The URL goes to its origin's queue. */
  record Queue() implements Admission {}

  /** The URL is known: its state stays as it is, and nothing is logged. */
  record Known() implements Admission {}

  /** The URL is not crawled; the outcome and detail are logged once and remembered. */
  record Reject(Outcome outcome, String detail) implements Admission {}

  Admission QUEUE = new Queue();
  Admission KNOWN = new Known();

  /**
   * Decides about a URL discovered at some depth (DESIGN.md section 2; seed 002's depth check, seed
   * 003's "origins taken from the seeds").
   *
   * @param isKnown whether the URL has a state already
   * @param isOriginInScope whether a seed named the URL's origin
   * @param origin the URL's origin, for the detail
   * @param depth link hops from a seed
   * @param maxDepth the deepest depth crawled, or a negative number for no limit
   */
  static Admission decide(boolean isKnown, boolean isOriginInScope, String origin, int depth, int maxDepth) {
    if (isKnown) {
      return KNOWN;
    }
    if (!isOriginInScope) {
      return new Reject(Outcome.OUT_OF_SCOPE, "origin " + origin + " is not the origin of a seed");
    }
    if (maxDepth >= 0 && depth > maxDepth) {
      return new Reject(Outcome.TOO_DEEP, "depth " + depth + " is beyond the maximum depth " + maxDepth);
    }
    return QUEUE;
  }
}
