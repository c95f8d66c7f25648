/**
 * The frontier service: owns every URL's state, admits discovered URLs, and releases fetch requests
 * per origin through a window of leases. Reads {@code crawl.discovered} and {@code crawl.outcomes};
 * writes {@code crawl.fetch-requests} and {@code crawl.log}.
 */
@NullMarked
package dev.crawler.frontier;

import org.jspecify.annotations.NullMarked;
