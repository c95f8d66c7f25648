/**
 * The crawler's event contract: the topic catalogue ({@link dev.crawler.schemas.Topics}), the
 * origin function every partition key is computed with ({@link dev.crawler.schemas.Origin}), and,
 * in {@code dev.crawler.events}, the Avro classes generated from {@code src/main/avro}.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.schemas;

import org.jspecify.annotations.NullMarked;
