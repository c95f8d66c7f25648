/**
 * The frontier's decisions, free of Kafka: admission of discovered URLs, the release window,
 * retries.
 */
@NullMarked
package dev.crawler.frontier.domain;

import org.jspecify.annotations.NullMarked;
