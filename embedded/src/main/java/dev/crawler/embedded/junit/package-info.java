/**
 * The JUnit 5 fixture for integration tests: one Kafka cluster and schema registry per test JVM,
 * shared by every test class that asks for it.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.embedded.junit;

import org.jspecify.annotations.NullMarked;
