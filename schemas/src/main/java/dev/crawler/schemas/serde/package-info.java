/**
 * Serialization in the Confluent Schema Registry wire format (magic byte 0, a 4-byte big-endian
 * schema id, Avro binary) and a client for the Confluent-compatible registry REST API.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.schemas.serde;

import org.jspecify.annotations.NullMarked;
