/**
 * The fetcher's decisions, free of Kafka and Jetty: politeness, robots verdicts, outcomes, commit
 * points.
 */
@NullMarked
package dev.crawler.fetcher.domain;

import org.jspecify.annotations.NullMarked;
