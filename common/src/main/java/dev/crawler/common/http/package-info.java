/** HTTP values the services share. */
@NullMarked
package dev.crawler.common.http;

import org.jspecify.annotations.NullMarked;
