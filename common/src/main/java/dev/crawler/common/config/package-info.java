/**
 * Service settings: declared with Kafka's {@code ConfigDef}, read from a properties file and {@code
 * CRAWLER_*} environment variables.
 */
@NullMarked
package dev.crawler.common.config;

import org.jspecify.annotations.NullMarked;
