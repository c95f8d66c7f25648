package dev.crawler.fetcher.kafka;

import dev.crawler.events.FetchRequest;
import dev.crawler.events.PolitenessState;
import dev.crawler.fetcher.domain.FetchPath;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;

/**
 * Which requests a fetch loop takes and how it fetches their pages: the fetchers' (crawl.fetch-
 * requests, over HTTP) or the render tier's (crawl.render-requests, in a browser). Either keeps its
 * origins' politeness the same way, on a topic of its own, and writes its results to the same
 * topics; robots.txt is read over HTTP by both.
 *
 * @param service the name in outcomes, crawl-log entries and dead letters
 * @param pages the path a request's page is fetched over
 */
public record FetchTier(
    String service,
    TopicSpec<String, FetchRequest> requests,
    TopicSpec<String, PolitenessState> politeness,
    FetchPath pages) {

  /** The fetchers'. */
  public static FetchTier fetchers(Topics topics) {
    return new FetchTier(
        FetchLoop.SERVICE, topics.fetchRequests(), topics.politeness(), FetchPath.HTTP);
  }

  /** The render tier's. */
  public static FetchTier renderers(Topics topics) {
    return new FetchTier(
        "render", topics.renderRequests(), topics.renderPoliteness(), FetchPath.BROWSER);
  }
}
