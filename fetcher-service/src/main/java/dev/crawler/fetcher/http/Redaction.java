package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.SiteAccess;
import dev.crawler.schemas.options.Access;

/**
 * What of a request's and a response's headers may leave the fetcher (on the fetch results, the
 * archive's exchanges): everything but secrets. The value of a header that is a credential ({@link
 * SiteAccess#isCredentialHeader}: {@code Authorization}, {@code Proxy-Authorization}, {@code
 * Cookie}, and the headers the site's options set from secrets) becomes {@value #REDACTED}; a
 * received {@code Set-Cookie} keeps its name and attributes and loses its value.
 */
final class Redaction {

  /** What a secret value is replaced with. */
  static final String REDACTED = "[redacted]";

  private Redaction() {}

  /** A request header's value as it may be recorded. */
  static String sent(String name, String value, SiteAccess access) {
    return access.isCredentialHeader(name) ? REDACTED : value;
  }

  /**
   * A response header's value as it may be recorded: a {@code Set-Cookie}'s without the cookie's
   * value, another credential header's (a {@code Cookie} or {@code Authorization} sent back)
   * redacted whole.
   */
  static String received(String name, String value) {
    if (!Access.isCredentialHeader(name)) {
      return value;
    }
    if (!name.regionMatches(true, 0, "set-cookie", 0, "set-cookie".length())) {
      return REDACTED;
    }
    int equals = value.indexOf('=');
    if (equals < 0) {
      return value; // no cookie value in it
    }
    int end = value.indexOf(';', equals);
    return value.substring(0, equals + 1) + REDACTED + (end < 0 ? "" : value.substring(end));
  }
}
