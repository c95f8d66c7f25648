package dev.crawler.common.url;

import java.util.Locale;

/**
 * The site of a URL or an origin: the registered domain of its host ({@link RegisteredDomain}), so
 * {@code https://www.example.org:8443/a} and {@code http://example.org} are both of the site {@code
 * example.org}. Budgets per site, operators' holds on a site, rules' site conditions, the
 * canonical-within-domain check and the figures by site all ask here.
 */
public final class Site {

  private Site() {}

  /**
   * The site of a URL or an origin ({@code scheme://host[:port]...}, or a bare host): the
   * registered domain of its host, lower-case; the host itself when it has none (an IP address,
   * localhost; an IPv6 address with its brackets). Read without parsing the whole URL: whatever
   * follows the authority is ignored. A text with no host gives itself, lower-cased.
   */
  public static String of(String url) {
    int start = url.indexOf("://");
    int from = start < 0 ? 0 : start + 3;
    int end = url.length();
    for (int i = from; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') {
        end = i;
        break;
      }
    }
    String authority = url.substring(from, end);
    int at = authority.lastIndexOf('@');
    String host = at < 0 ? authority : authority.substring(at + 1);
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      return (close < 0 ? host : host.substring(0, close + 1)).toLowerCase(Locale.ROOT);
    }
    int colon = host.indexOf(':');
    if (colon >= 0) {
      host = host.substring(0, colon);
    }
    return host.isEmpty() ? url.toLowerCase(Locale.ROOT) : RegisteredDomain.of(host);
  }
}
