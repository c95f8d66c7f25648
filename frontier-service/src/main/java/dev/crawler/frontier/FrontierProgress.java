package dev.crawler.frontier;

/**
 * How far the crawl is, as the frontier's stores in this instance say.
 *
 * @param origins origins known
 * @param queued URLs waiting in their origin's queue, those of paused origins included
 * @param paused URLs waiting in the queues of origins the fetcher asked to leave alone for now
 * @param inFlight requests released whose outcome has not come
 * @param released requests released by this instance since it started
 * @param isBudgetSpent whether {@code frontier.max.pages} requests were released, so no more will
 *     be
 */
public record FrontierProgress(
    long origins, long queued, long paused, long inFlight, long released, boolean isBudgetSpent) {

  /**
   * Whether nothing is in flight and nothing more will be released soon: URLs of paused origins
   * stay queued for a later run (an origin out of patience is finished for this run).
   */
  public boolean isIdle() {
    return inFlight == 0 && isDraining();
  }

  /**
   * Whether nothing more will be released soon: what the crawl waits for is the requests in flight,
   * and the links they bring.
   */
  public boolean isDraining() {
    return queued == paused || isBudgetSpent;
  }
}
