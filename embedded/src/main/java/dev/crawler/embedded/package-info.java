/**
 * A real Kafka broker in this JVM (single node, KRaft) and a real schema registry (Apicurio
 * Registry, Confluent-compatible API) as a child process: what {@code crawler crawl} runs when no
 * cluster is given, and what the integration tests run against. Everything listens on 127.0.0.1
 * only.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.embedded;

import org.jspecify.annotations.NullMarked;
