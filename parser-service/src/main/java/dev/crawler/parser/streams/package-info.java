/** The parser's Kafka Streams wiring. */
@NullMarked
package dev.crawler.parser.streams;

import org.jspecify.annotations.NullMarked;
