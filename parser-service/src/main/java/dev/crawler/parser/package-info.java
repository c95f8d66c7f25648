/**
 * The parser service: turns fetched bytes into documents and outlinks. Reads {@code
 * crawl.fetch-results}; writes {@code crawl.parsed}, {@code crawl.discovered}, {@code
 * crawl.outcomes} and {@code crawl.log}.
 */
@NullMarked
package dev.crawler.parser;

import org.jspecify.annotations.NullMarked;
