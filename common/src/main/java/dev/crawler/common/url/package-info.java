/** URL normalization: the one form URLs are stored and compared in. */
@NullMarked
package dev.crawler.common.url;

import org.jspecify.annotations.NullMarked;
