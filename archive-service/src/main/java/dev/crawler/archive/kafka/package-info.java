/** The archive writer's Kafka loop: records read, files closed, offsets committed after them. */
@NullMarked
package dev.crawler.archive.kafka;

import org.jspecify.annotations.NullMarked;
