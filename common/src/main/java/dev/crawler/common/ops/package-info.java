/**
 * What makes a service operable on its own: health and metrics over HTTP on a management port, and
 * its logging format.
 */
@NullMarked
package dev.crawler.common.ops;

import org.jspecify.annotations.NullMarked;
