package dev.crawler.parser.domain;

import dev.crawler.events.UrlKind;
import java.util.Optional;

/**
 * A link found on a page.
 *
 * @param url absolute and normalized
 * @param kind LINK for {@code a} and {@code area}, FRAME for {@code frame} and {@code iframe}
 * @param anchor the anchor text of an {@code a}, when it has one
 */
public record Link(String url, UrlKind kind, Optional<String> anchor) {}
