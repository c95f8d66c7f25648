/**
 * The Kafka plumbing every service shares: the settings of each kind of client, reading a topic to
 * its end, the loop of a plain consumer that writes in transactions, and the threads a service
 * owns.
 */
@NullMarked
package dev.crawler.common.kafka;

import org.jspecify.annotations.NullMarked;
