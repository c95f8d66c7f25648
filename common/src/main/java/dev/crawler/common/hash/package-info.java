/** Digests the services share. */
@NullMarked
package dev.crawler.common.hash;

import org.jspecify.annotations.NullMarked;
