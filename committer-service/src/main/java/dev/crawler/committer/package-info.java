/**
 * The committer service: decides what downstream sees. Reads {@code crawl.parsed} and {@code
 * crawl.outcomes}; writes {@code crawl.documents}, {@code crawl.outcomes} and {@code crawl.log}.
 */
@NullMarked
package dev.crawler.committer;

import org.jspecify.annotations.NullMarked;
