/**
 * The archive's files and records, free of Kafka: WARC records made from exchanges (jwarc), the
 * files they go to, their names, rotation and recovery after a crash.
 */
@NullMarked
package dev.crawler.archive.domain;

import org.jspecify.annotations.NullMarked;
