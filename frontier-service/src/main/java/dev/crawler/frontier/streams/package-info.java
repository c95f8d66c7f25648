/** The frontier's Kafka Streams wiring: the topology, its processor and stores. */
@NullMarked
package dev.crawler.frontier.streams;

import org.jspecify.annotations.NullMarked;
