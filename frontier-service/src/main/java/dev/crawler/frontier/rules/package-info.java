/**
 * The crawl configuration and its rule engine (recursive conditions, link rules, policies): pure,
 * free of Kafka.
 */
@NullMarked
package dev.crawler.frontier.rules;

import org.jspecify.annotations.NullMarked;
