package dev.crawler.fetcher.http;

import dev.crawler.schemas.options.Access;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.DigestAuthentication;
import org.eclipse.jetty.client.HttpClient;

/**
 * The HTTP authentication (Basic or Digest) of each origin whose options set one, registered with
 * the client its requests go through and bound to that origin: the credentials answer its
 * challenges and no other host's, and what answered a challenge goes along with later requests in
 * that challenge's protection space only ({@link ProtectionSpaceStore}, the clients' store). An
 * origin's authentication is registered once and renewed when its credentials change. Digest is
 * Jetty's: MD5 and SHA-256 (any algorithm the JDK's {@link java.security.MessageDigest} knows by
 * the challenge's name), {@code qop=auth} and {@code auth-int}; the {@code -sess} variants are not
 * supported, so their challenge is the answer. Thread-safe.
 */
final class OriginAuthentications {

  private final Map<String, Authentication> authentications = new ConcurrentHashMap<>();
  private final Map<String, String> keys = new ConcurrentHashMap<>();

  /**
   * Registers the origin's authentication with the client, or renews it when it changed.
   *
   * @param user the user name, resolved
   * @param password the password, resolved
   */
  void register(
      HttpClient client, String origin, Access.AuthScheme scheme, String user, String password) {
    String key = scheme + "\n" + user + "\n" + Integer.toHexString(password.hashCode());
    if (key.equals(keys.get(origin))) {
      return;
    }
    synchronized (authentications) {
      URI uri = URI.create(origin);
      Authentication old = authentications.remove(origin);
      if (old != null) {
        client.getAuthenticationStore().removeAuthentication(old);
        client.getAuthenticationStore().clearAuthenticationResults();
      }
      Authentication authentication =
          ProtectionSpaceStore.scoped(
              scheme == Access.AuthScheme.DIGEST
                  ? new DigestAuthentication(uri, Authentication.ANY_REALM, user, password)
                  : new BasicAuthentication(uri, Authentication.ANY_REALM, user, password));
      client.getAuthenticationStore().addAuthentication(authentication);
      authentications.put(origin, authentication);
      keys.put(origin, key);
    }
  }
}
