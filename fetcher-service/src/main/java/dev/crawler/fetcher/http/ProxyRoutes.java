package dev.crawler.fetcher.http;

import dev.crawler.schemas.options.Access;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpProxy;
import org.eclipse.jetty.client.Origin;
import org.eclipse.jetty.client.ProxyConfiguration;
import org.eclipse.jetty.client.Socks5;
import org.eclipse.jetty.client.Socks5Proxy;

/**
 * Which origin goes through which proxy, for every client of the fetcher: each origin is routed by
 * the proxy option of its last request (a site's, or the global one), or straight when it has none.
 * An HTTP proxy gets requests in absolute form for http and a CONNECT tunnel for https; a SOCKS5
 * proxy a CONNECT. Proxy credentials (Basic for HTTP proxies, user name and password for SOCKS5)
 * are resolved by the caller and kept only in the clients. A proxy's address passes the address
 * guard (the operator named it); the caller judges the target's own address first. Thread-safe.
 */
final class ProxyRoutes {

  /** A proxy with its resolved credentials. */
  record Route(Access.Proxy proxy, Optional<String> user, Optional<String> password) {
    @Override
    public String toString() {
      return proxy.toString();
    }
  }

  private final HttpClient[] clients;
  private final Map<String, Route> routes = new ConcurrentHashMap<>();
  private final Map<Access.Proxy, Route> registered = new ConcurrentHashMap<>();

  ProxyRoutes(HttpClient... clients) {
    this.clients = clients.clone();
  }

  /** Routes the origin through the proxy, or straight when there is none. */
  void route(String origin, Optional<Route> route) {
    if (route.isEmpty()) {
      routes.remove(origin);
      return;
    }
    Route wanted = route.get();
    routes.put(origin, register(wanted));
  }

  /** Forgets the origin's route. */
  void forget(String origin) {
    routes.remove(origin);
  }

  /** Whether {@code host:port} is a proxy the configuration names. */
  boolean isProxy(String host, int port) {
    for (Access.Proxy proxy : registered.keySet()) {
      if (proxy.host().equalsIgnoreCase(host) && proxy.port() == port) {
        return true;
      }
    }
    return false;
  }

  private Route register(Route wanted) {
    Route current = registered.get(wanted.proxy());
    if (current != null && current.equals(wanted)) {
      return current;
    }
    synchronized (this) {
      current = registered.get(wanted.proxy());
      if (current != null && current.equals(wanted)) {
        return current;
      }
      for (HttpClient client : clients) {
        ProxyConfiguration configuration = client.getProxyConfiguration();
        configuration.getProxies().stream()
            .filter(p -> p instanceof Routed routed && routed.key().equals(wanted.proxy()))
            .toList()
            .forEach(configuration::removeProxy);
        ProxyConfiguration.Proxy proxy = newProxy(wanted);
        configuration.addProxy(proxy);
        if (wanted.proxy().scheme() == Access.ProxyScheme.HTTP && wanted.user().isPresent()) {
          URI uri = proxy.getURI();
          Authentication old =
              client.getAuthenticationStore().findAuthentication("Basic", uri, null);
          if (old != null) {
            client.getAuthenticationStore().removeAuthentication(old);
          }
          client.getAuthenticationStore().clearAuthenticationResults();
          client
              .getAuthenticationStore()
              .addAuthentication(
                  new BasicAuthentication(
                      uri,
                      Authentication.ANY_REALM,
                      wanted.user().get(),
                      wanted.password().orElse("")));
        }
      }
      registered.put(wanted.proxy(), wanted);
      // origins routed through the proxy take its new credentials
      routes.replaceAll((origin, route) -> route.proxy().equals(wanted.proxy()) ? wanted : route);
      return wanted;
    }
  }

  private ProxyConfiguration.Proxy newProxy(Route route) {
    Access.Proxy spec = route.proxy();
    Origin.Address address = new Origin.Address(spec.host(), spec.port());
    if (spec.scheme() == Access.ProxyScheme.SOCKS5) {
      RoutedSocks5 proxy = new RoutedSocks5(address, spec);
      route
          .user()
          .ifPresent(
              user ->
                  proxy.putAuthenticationFactory(
                      new Socks5.UsernamePasswordAuthenticationFactory(
                          user, route.password().orElse(""))));
      return proxy;
    }
    return new RoutedHttp(address, spec);
  }

  private boolean isRouted(Origin origin, Access.Proxy proxy) {
    Route route = routes.get(keyOf(origin));
    return route != null && route.proxy().equals(proxy);
  }

  private static String keyOf(Origin origin) {
    String scheme = origin.getScheme();
    int port = origin.getAddress().getPort();
    boolean isDefault =
        (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
    String host = origin.getAddress().getHost();
    if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return isDefault ? scheme + "://" + host : scheme + "://" + host + ":" + port;
  }

  private interface Routed {
    Access.Proxy key();
  }

  private final class RoutedHttp extends HttpProxy implements Routed {
    private final Access.Proxy key;

    RoutedHttp(Origin.Address address, Access.Proxy key) {
      super(address, false);
      this.key = key;
    }

    @Override
    public Access.Proxy key() {
      return key;
    }

    @Override
    public boolean matches(Origin origin) {
      return isRouted(origin, key);
    }
  }

  private final class RoutedSocks5 extends Socks5Proxy implements Routed {
    private final Access.Proxy key;

    RoutedSocks5(Origin.Address address, Access.Proxy key) {
      super(address, false);
      this.key = key;
    }

    @Override
    public Access.Proxy key() {
      return key;
    }

    @Override
    public boolean matches(Origin origin) {
      return isRouted(origin, key);
    }
  }
}
