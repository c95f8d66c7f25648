/**
 * The archive writer: every HTTP exchange the fetchers made, written to WARC 1.1 files exactly
 * once. Reads {@code crawl.fetch-results} and {@code crawl.exchanges}; writes files.
 */
@NullMarked
package dev.crawler.archive;

import org.jspecify.annotations.NullMarked;
