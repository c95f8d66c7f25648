/**
 * The fetcher's decisions, free of Kafka and Jetty: politeness, robots verdicts, outcomes, the
 * offsets to commit.
 */
@NullMarked
package dev.crawler.fetcher.domain;

import org.jspecify.annotations.NullMarked;
