/** The Jetty implementation of the page fetcher: the only package that imports Jetty. */
@NullMarked
package dev.crawler.fetcher.http;

import org.jspecify.annotations.NullMarked;
