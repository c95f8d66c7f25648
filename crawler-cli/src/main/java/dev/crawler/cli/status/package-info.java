/**
 * {@code crawler status}: where a running crawl stands, from crawl.stats and the consumer groups'
 * offsets.
 */
@NullMarked
package dev.crawler.cli.status;

import org.jspecify.annotations.NullMarked;
