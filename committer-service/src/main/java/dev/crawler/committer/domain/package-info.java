/** The committer's decisions, free of Kafka: upsert, nothing, or delete. */
@NullMarked
package dev.crawler.committer.domain;

import org.jspecify.annotations.NullMarked;
