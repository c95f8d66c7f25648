/** The committer's Kafka Streams wiring. */
@NullMarked
package dev.crawler.committer.streams;

import org.jspecify.annotations.NullMarked;
