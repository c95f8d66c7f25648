/**
 * The event-driven recrawl scheduler of seed 000 (WP Content Crawler's recrawling), pure: no Kafka.
 */
@NullMarked
package dev.crawler.frontier.recrawl;

import org.jspecify.annotations.NullMarked;
