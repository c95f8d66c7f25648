/** The fetcher's Kafka wiring: the fetch loop. */
@NullMarked
package dev.crawler.fetcher.kafka;

import org.jspecify.annotations.NullMarked;
