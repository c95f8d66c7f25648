/**
 * The render tier's browser half: turns one URL into the DOM a headless Chromium built from it,
 * every request of the page made by the crawler's own loader ({@link
 * dev.crawler.render.domain.RequestLoader}). {@code domain} holds the decisions, {@code browser}
 * drives the browser over the DevTools protocol, {@code fetch} offers it as a {@link
 * dev.crawler.fetcher.domain.PageFetcher}.
 */
@NullMarked
package dev.crawler.render;

import org.jspecify.annotations.NullMarked;
