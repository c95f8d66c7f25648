/** Page parsing, free of Kafka: links, canonical, robots meta, text and checksum. */
@NullMarked
package dev.crawler.parser.domain;

import org.jspecify.annotations.NullMarked;
