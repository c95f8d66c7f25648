/**
 * The crawl configuration and its rule engine (seed 004's recursive conditions, seed 001's link
 * rules, seed 003's policies): pure, free of Kafka.
 */
@NullMarked
package dev.crawler.frontier.rules;

import org.jspecify.annotations.NullMarked;
