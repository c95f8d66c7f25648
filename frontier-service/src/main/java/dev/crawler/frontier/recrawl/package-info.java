/** The event-driven recrawl scheduler (WP Content Crawler's recrawling), pure: no Kafka. */
@NullMarked
package dev.crawler.frontier.recrawl;

import org.jspecify.annotations.NullMarked;
