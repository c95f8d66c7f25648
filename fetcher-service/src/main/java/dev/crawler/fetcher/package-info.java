/**
 * The fetcher service: fetches politely. Reads {@code crawl.fetch-requests}; writes {@code
 * crawl.fetch-results}, {@code crawl.outcomes}, {@code crawl.log}, and {@code crawl.discovered} for
 * the targets of redirects.
 */
@NullMarked
package dev.crawler.fetcher;

import org.jspecify.annotations.NullMarked;
