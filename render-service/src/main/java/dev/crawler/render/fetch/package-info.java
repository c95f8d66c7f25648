/**
 * The renderer as a {@link dev.crawler.fetcher.domain.PageFetcher}: a page rendered with every
 * request of it made by another page fetcher, so the address guard, credentials and cookies of the
 * crawler's HTTP client apply to each.
 */
@NullMarked
package dev.crawler.render.fetch;

import org.jspecify.annotations.NullMarked;
