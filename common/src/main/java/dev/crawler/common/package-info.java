/** What every crawler service shares. */
@NullMarked
package dev.crawler.common;

import org.jspecify.annotations.NullMarked;
