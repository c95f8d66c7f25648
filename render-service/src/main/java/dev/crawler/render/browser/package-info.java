/**
 * Drives a headless Chromium over the DevTools protocol: the browser's process and its pipe, one
 * page's render, the {@link dev.crawler.render.browser.Renderer} that keeps a browser and replaces
 * it. The only package that speaks the protocol.
 */
@NullMarked
package dev.crawler.render.browser;

import org.jspecify.annotations.NullMarked;
