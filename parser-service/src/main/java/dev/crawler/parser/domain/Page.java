package dev.crawler.parser.domain;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A fetched response as the parser needs it.
 *
 * @param url the page's normalized URL, the base of its relative links
 * @param headers the response headers, names as received
 * @param body the body bytes (already content-decoded)
 * @param contentType the media type without parameters, lower-case, when the response said
 * @param charset the charset the response declared, when it did
 */
public record Page(String url, Map<String, String> headers, byte[] body, Optional<String> contentType, Optional<String> charset) {

  /** A header's value by case-insensitive name. */
  public Optional<String> header(String name) {
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return Optional.ofNullable(header.getValue());
      }
    }
    return Optional.empty();
  }

  /** The content type, or one sniffed from the body's first bytes when the response gave none. */
  public String effectiveContentType() {
    if (contentType.isPresent() && !contentType.get().isBlank()) {
      return contentType.get().toLowerCase(Locale.ROOT);
    }
    String start = new String(body, 0, Math.min(body.length, 256), java.nio.charset.StandardCharsets.ISO_8859_1).stripLeading().toLowerCase(Locale.ROOT);
    if (start.startsWith("<!doctype html") || start.startsWith("<html") || start.contains("<head") || start.contains("<body")) {
      return "text/html";
    }
    if (start.startsWith("<?xml")) {
      return "application/xml";
    }
    return "application/octet-stream";
  }
}
