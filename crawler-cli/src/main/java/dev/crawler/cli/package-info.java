/**
 * The {@code crawler} command.
 *
 * <p>Nothing in this package returns or accepts null unless the type says so.
 */
@NullMarked
package dev.crawler.cli;

import org.jspecify.annotations.NullMarked;
