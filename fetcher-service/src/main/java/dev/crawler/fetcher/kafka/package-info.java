/**
 * The fetcher's Kafka wiring: the fetch loop ({@link dev.crawler.fetcher.kafka.FetchLoop}) and its
 * parts, each owning one concern: origins, running and ending requests, writing results, offsets,
 * the politeness hand-over, rebalancing.
 */
@NullMarked
package dev.crawler.fetcher.kafka;

import org.jspecify.annotations.NullMarked;
