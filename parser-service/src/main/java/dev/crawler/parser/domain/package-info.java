/**
 * Page parsing, free of Kafka: a fetched {@link dev.crawler.parser.domain.Page} in, a {@link
 * dev.crawler.parser.domain.ParseResult} out (the document's text, metadata, checksum, links and
 * canonical, or why it is rejected), and the decision of what the page makes known to the frontier
 * ({@link dev.crawler.parser.domain.ParseResult.Parsed#discoveries(int, boolean)}).
 */
@NullMarked
package dev.crawler.parser.domain;

import org.jspecify.annotations.NullMarked;
