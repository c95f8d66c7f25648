package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.options.Access;
import java.util.Locale;

/**
 * What of a request's and a response's headers may leave the fetcher (on the fetch results, the
 * archive's exchanges): everything but secrets. The values of {@code Authorization}, {@code
 * Proxy-Authorization} and {@code Cookie}, and of the headers the site's options mark as
 * credentials, become {@value #REDACTED}; a {@code Set-Cookie} keeps its name and attributes and
 * loses its value.
 */
final class Redaction {

  /** What a secret value is replaced with. */
  static final String REDACTED = "[redacted]";

  private Redaction() {}

  /** A request header's value as it may be recorded. */
  static String sent(String name, String value, SiteAccess access) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("authorization")
        || lower.equals("proxy-authorization")
        || lower.equals("cookie")) {
      return REDACTED;
    }
    for (Access.Header header : access.headers()) {
      if (header.isCredential() && header.name().equalsIgnoreCase(name)) {
        return REDACTED;
      }
    }
    return value;
  }

  /** A response header's value as it may be recorded. */
  static String received(String name, String value) {
    if (!name.equalsIgnoreCase("set-cookie") && !name.equalsIgnoreCase("set-cookie2")) {
      return value;
    }
    int equals = value.indexOf('=');
    if (equals < 0) {
      return value;
    }
    int end = value.indexOf(';', equals);
    return value.substring(0, equals + 1) + REDACTED + (end < 0 ? "" : value.substring(end));
  }
}
