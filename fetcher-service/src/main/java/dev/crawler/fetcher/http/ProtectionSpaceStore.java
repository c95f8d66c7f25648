package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.ProtectionSpaces;
import dev.crawler.schemas.Origin;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.client.AbstractAuthentication;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.AuthenticationStore;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.util.Attributes;

/**
 * A client's authentication store that keeps the credentials of a site's HTTP authentication per
 * protection space (origin and realm, {@link ProtectionSpaces}), not per origin as Jetty's own
 * store does: Jetty keeps one result per URI prefix, so the last realm that answered a challenge
 * had its credentials (realm, algorithm, nonce) sent to every other realm of the origin, each of
 * which refused them. Here a request goes with the credentials of the space its path belongs to, or
 * with none, and the challenge answers it; Jetty's {@link
 * org.eclipse.jetty.client.DigestAuthentication} and {@link
 * org.eclipse.jetty.client.BasicAuthentication} still compute the credentials, wrapped by {@link
 * #scoped} so that their results say which space they are for.
 *
 * <p>Other results (a proxy's pre-emptive credentials) are kept by URI prefix, as Jetty does, the
 * longest prefix winning. Thread-safe.
 */
final class ProtectionSpaceStore implements AuthenticationStore {

  private final List<Authentication> authentications = new CopyOnWriteArrayList<>();
  private final ConcurrentMap<String, ProtectionSpaces<Authentication.Result>> origins =
      new ConcurrentHashMap<>();
  private final Map<URI, Authentication.Result> byUri = new ConcurrentHashMap<>();

  /**
   * The authentication, answering challenges as it does, with results that name their protection
   * space, which this store keeps them in.
   */
  static Authentication scoped(AbstractAuthentication authentication) {
    return new Scoped(authentication);
  }

  @Override
  public void addAuthentication(Authentication authentication) {
    authentications.add(authentication);
  }

  @Override
  public void removeAuthentication(Authentication authentication) {
    authentications.remove(authentication);
  }

  @Override
  public void clearAuthentications() {
    authentications.clear();
  }

  @Override
  public Authentication findAuthentication(String type, URI uri, String realm) {
    for (Authentication authentication : authentications) {
      if (authentication.matches(type, uri, realm)) {
        return authentication;
      }
    }
    return null;
  }

  /** Called by Jetty when a request that answered a challenge succeeded (2xx or redirect). */
  @Override
  public void addAuthenticationResult(Authentication.Result result) {
    if (result instanceof SpaceResult accepted) {
      origins
          .computeIfAbsent(accepted.origin, ProtectionSpaces::new)
          .accepted(accepted.space, accepted.requestUrl, accepted.domain, accepted);
    } else if (result.getURI() != null) {
      byUri.put(result.getURI(), result);
    }
  }

  @Override
  public void removeAuthenticationResult(Authentication.Result result) {
    if (result instanceof SpaceResult accepted) {
      ProtectionSpaces<Authentication.Result> spaces = origins.get(accepted.origin);
      if (spaces != null) {
        spaces.forget(accepted.space);
      }
    } else if (result.getURI() != null) {
      byUri.remove(result.getURI());
    }
  }

  @Override
  public void clearAuthenticationResults() {
    origins.clear();
    byUri.clear();
  }

  /** Called by Jetty before each request is sent: the credentials that go along with it. */
  @Override
  public Authentication.Result findAuthenticationResult(URI uri) {
    String url = uri.toString();
    Optional<Authentication.Result> inSpace = Optional.empty();
    try {
      ProtectionSpaces<Authentication.Result> spaces = origins.get(Origin.keyOf(url));
      if (spaces != null) {
        inSpace = spaces.credentialsFor(url);
      }
    } catch (RuntimeException e) {
      // not an origin's URL: only results by URI can match
    }
    if (inSpace.isPresent()) {
      return inSpace.get();
    }
    Authentication.Result found = null;
    int longest = -1;
    for (Map.Entry<URI, Authentication.Result> entry : byUri.entrySet()) {
      URI prefix = entry.getKey();
      int length = prefix.getPath() == null ? 0 : prefix.getPath().length();
      if (length > longest && AbstractAuthentication.matchesURI(prefix, uri)) {
        found = entry.getValue();
        longest = length;
      }
    }
    return found;
  }

  @Override
  public boolean hasAuthenticationResults() {
    return !origins.isEmpty() || !byUri.isEmpty();
  }

  /** An authentication whose results name the protection space of the challenge they answer. */
  private static final class Scoped implements Authentication {

    private final AbstractAuthentication authentication;

    Scoped(AbstractAuthentication authentication) {
      this.authentication = authentication;
    }

    @Override
    public boolean matches(String type, URI uri, String realm) {
      return authentication.matches(type, uri, realm);
    }

    @Override
    public Result authenticate(
        Request request, ContentResponse response, HeaderInfo challenge, Attributes context) {
      Result result = authentication.authenticate(request, response, challenge, context);
      if (result == null) {
        return null; // a challenge it cannot answer (an unknown algorithm): its 401 is the answer
      }
      String url = request.getURI().toString();
      String domain = challenge.getParameter("domain");
      return new SpaceResult(
          result,
          Origin.keyOf(url),
          new ProtectionSpaces.Space(
              challenge.getType(), challenge.getRealm() == null ? "" : challenge.getRealm()),
          url,
          domain == null ? "" : domain);
    }
  }

  /**
   * The credentials of one protection space, as they answered a challenge. Applied to a request
   * that already carries credentials (the request that answers a challenge, sent with the new
   * ones), it adds none.
   */
  private static final class SpaceResult implements Authentication.Result {

    private final Authentication.Result credentials;
    private final String origin;
    private final ProtectionSpaces.Space space;
    private final String requestUrl;
    private final String domain;

    SpaceResult(
        Authentication.Result credentials,
        String origin,
        ProtectionSpaces.Space space,
        String requestUrl,
        String domain) {
      this.credentials = credentials;
      this.origin = origin;
      this.space = space;
      this.requestUrl = requestUrl;
      this.domain = domain;
    }

    @Override
    public URI getURI() {
      return URI.create(origin);
    }

    @Override
    public void apply(Request request) {
      if (!request.getHeaders().contains(HttpHeader.AUTHORIZATION)) {
        credentials.apply(request);
      }
    }

    @Override
    public String toString() {
      return space.scheme() + " credentials for realm '" + space.realm() + "' of " + origin;
    }
  }
}
