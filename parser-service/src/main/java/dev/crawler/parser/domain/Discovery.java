package dev.crawler.parser.domain;

import dev.crawler.events.UrlKind;
import java.util.Optional;

/**
 * A URL a parsed page makes known to the frontier: one of its links, or the canonical URL it names.
 *
 * @param url absolute and normalized
 * @param kind LINK, FRAME or CANONICAL
 * @param depth link hops from a seed: the page's depth + 1 for a link, the page's own depth for its
 *     canonical (the same document under another name)
 * @param anchor the anchor text of a link, when it has one
 */
public record Discovery(String url, UrlKind kind, int depth, Optional<String> anchor) {}
