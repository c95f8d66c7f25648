/**
 * The per-URL options a fetch request carries from the frontier to the services that act on them
 * (the fetcher, the parser and, through the parsed document, the committer): one catalogue, {@link
 * dev.crawler.schemas.options.RequestOptions}, of names, types, defaults and wire encodings.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.schemas.options;

import org.jspecify.annotations.NullMarked;
