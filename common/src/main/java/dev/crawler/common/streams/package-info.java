/** What the Kafka Streams services share: the dead-letter handler. */
@NullMarked
package dev.crawler.common.streams;

import org.jspecify.annotations.NullMarked;
