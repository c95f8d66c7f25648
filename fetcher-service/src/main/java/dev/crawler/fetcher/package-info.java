/**
 * The fetcher service: fetches politely. Reads {@code crawl.fetch-requests}; writes {@code
 * crawl.fetch-results}, {@code crawl.outcomes}, {@code crawl.log} and, for redirects, {@code
 * crawl.discovered}.
 */
@NullMarked
package dev.crawler.fetcher;

import org.jspecify.annotations.NullMarked;
