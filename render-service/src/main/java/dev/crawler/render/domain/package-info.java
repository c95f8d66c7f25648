/**
 * The renderer's decisions, free of the browser and of any HTTP client: when a page has settled,
 * which main-document responses are rendered, the browser's command line, what a render ended as.
 */
@NullMarked
package dev.crawler.render.domain;

import org.jspecify.annotations.NullMarked;
