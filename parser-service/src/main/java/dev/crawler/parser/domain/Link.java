package dev.crawler.parser.domain;

import dev.crawler.events.UrlKind;
import java.util.Optional;

/**
 * A link found on a page (link detection).
 *
 * @param url absolute (resolved against {@code <base href>} or the page URL) and normalized
 * @param kind LINK for {@code a} and {@code area}, FRAME for {@code frame} and {@code iframe}
 * @param anchor the text of an {@code a}, whitespace collapsed, when it has any
 * @param isNofollow every occurrence of the link on the page has {@code rel="nofollow"}
 */
public record Link(String url, UrlKind kind, Optional<String> anchor, boolean isNofollow) {

  /** A link without rel=nofollow. */
  public Link(String url, UrlKind kind, Optional<String> anchor) {
    this(url, kind, anchor, false);
  }
}
