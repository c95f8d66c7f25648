package dev.crawler.fetcher.kafka;

import dev.crawler.events.FetchRequest;
import dev.crawler.fetcher.domain.FetchOptions;
import org.apache.kafka.common.TopicPartition;

/**
 * A fetch request held by this fetcher, from when it is read until its result is written.
 *
 * @param partition the partition it was read from
 * @param offset its offset there, marked done once its result is acknowledged
 * @param origin the origin of its URL; empty when the URL has none
 * @param options the request's options over the fetcher's defaults
 * @param heldSince when it was read (epoch ms, the loop's clock)
 */
record Pending(
    TopicPartition partition,
    long offset,
    String origin,
    FetchRequest request,
    FetchOptions options,
    long heldSince) {

  String url() {
    return request.getUrl();
  }
}
