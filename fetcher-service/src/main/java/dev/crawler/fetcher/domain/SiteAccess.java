package dev.crawler.fetcher.domain;

import dev.crawler.schemas.options.Access;
import dev.crawler.schemas.options.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a request reaches its site: the headers it adds, whether the origin keeps a cookie jar, HTTP
 * authentication, a form login, a proxy — a typed view of a fetch request's access options, whose
 * secrets are still references ({@link Secrets} resolves them just before the request).
 *
 * @param headers headers every request to the origin carries
 * @param cookies whether the origin keeps a cookie jar (a login implies one)
 * @param auth HTTP Basic or Digest authentication for the origin
 * @param login a form login made before the origin's pages
 * @param proxy the proxy requests go through
 * @param overPlainHttp whether credentials may be sent over plain http
 */
public record SiteAccess(
    List<Access.Header> headers,
    boolean cookies,
    Optional<Access.Auth> auth,
    Optional<Access.Login> login,
    Optional<Access.Proxy> proxy,
    boolean overPlainHttp) {

  /** A request that sets none of them: straight to the site, no cookies, no credentials. */
  public static final SiteAccess NONE =
      new SiteAccess(List.of(), false, Optional.empty(), Optional.empty(), Optional.empty(), false);

  public SiteAccess {
    headers = List.copyOf(headers);
  }

  /** The access a request's options set. */
  public static SiteAccess of(Map<String, String> options) {
    if (!hasAny(options)) {
      return NONE; // most requests: no allocation
    }
    SiteAccess access =
        new SiteAccess(
            RequestOptions.HEADERS.readFrom(options),
            RequestOptions.COOKIES.readFrom(options),
            RequestOptions.AUTH.readFrom(options),
            RequestOptions.LOGIN.readFrom(options),
            RequestOptions.PROXY.readFrom(options),
            RequestOptions.CREDENTIALS_OVER_HTTP.readFrom(options));
    return access.equals(NONE) ? NONE : access;
  }

  private static boolean hasAny(Map<String, String> options) {
    return options.containsKey(RequestOptions.HEADERS.name())
        || options.containsKey(RequestOptions.COOKIES.name())
        || options.containsKey(RequestOptions.AUTH.name())
        || options.containsKey(RequestOptions.LOGIN.name())
        || options.containsKey(RequestOptions.PROXY.name())
        || options.containsKey(RequestOptions.CREDENTIALS_OVER_HTTP.name());
  }

  /**
   * Whether requests carry credentials of the crawl: authentication, a login's session, a header
   * that is a credential. Those go only to their origin, and only over TLS whose certificate
   * verified unless {@link #overPlainHttp} allows plain http.
   */
  public boolean carriesCredentials() {
    return auth.isPresent()
        || login.isPresent()
        || headers.stream().anyMatch(Access.Header::isCredential);
  }

  /**
   * Whether a request header's value is a credential: its name is one whatever the site ({@link
   * Access#isCredentialHeader}), or the site's options set it from a secret reference (an API key).
   */
  public boolean isCredentialHeader(String name) {
    if (Access.isCredentialHeader(name)) {
      return true;
    }
    for (Access.Header header : headers) {
      if (header.isCredential() && header.name().equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the origin keeps a cookie jar. */
  public boolean keepsCookies() {
    return cookies || login.isPresent();
  }

  /** What robots.txt's request takes of it: the proxy and the headers that are no credential. */
  public SiteAccess forRobots() {
    if (equals(NONE)) {
      return NONE;
    }
    return new SiteAccess(
        headers.stream().filter(header -> !header.isCredential()).toList(),
        false,
        Optional.empty(),
        Optional.empty(),
        proxy,
        false);
  }
}
