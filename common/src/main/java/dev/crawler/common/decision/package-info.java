/** Decisions about URLs, as the outcome and crawl-log records every service writes. */
@NullMarked
package dev.crawler.common.decision;

import org.jspecify.annotations.NullMarked;
