package dev.crawler.fetcher.http;

import dev.crawler.fetcher.domain.AddressPolicy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * The address guard, where Jetty's client resolves a host before it connects: of the addresses a
 * name resolves to, only those the {@link AddressPolicy} allows are handed to the connector, which
 * connects to nothing else. So the check is on the very address connected to, after resolution:
 * pages, HEAD requests, robots.txt, sitemaps and every redirect hop go through it, and a name that
 * resolves to a public address once and to an internal one the next time (DNS rebinding) is judged
 * on the second answer when it connects with it. When no address is allowed, the connection fails
 * with {@link AddressDeniedException} before any byte is sent. Thread-safe.
 */
final class GuardedAddressResolver implements SocketAddressResolver {

  private final SocketAddressResolver resolver;
  private final AddressPolicy policy;
  private final BiPredicate<String, Integer> isProxy;

  /**
   * @param isProxy whether {@code host:port} is a proxy the crawl configuration names: its
   *     addresses are the operator's choice and pass
   */
  GuardedAddressResolver(
      SocketAddressResolver resolver, AddressPolicy policy, BiPredicate<String, Integer> isProxy) {
    this.resolver = resolver;
    this.policy = policy;
    this.isProxy = isProxy;
  }

  GuardedAddressResolver(SocketAddressResolver resolver, AddressPolicy policy) {
    this(resolver, policy, (host, port) -> false);
  }

  @Override
  public void resolve(
      String host,
      int port,
      Map<String, Object> context,
      Promise<List<InetSocketAddress>> promise) {
    if (isProxy.test(host, port)) {
      resolver.resolve(host, port, context, promise);
      return;
    }
    resolver.resolve(
        host,
        port,
        context,
        new Promise<>() {
          @Override
          public void succeeded(List<InetSocketAddress> addresses) {
            List<InetSocketAddress> allowed = new ArrayList<>(addresses.size());
            Optional<AddressPolicy.Denial> denied = Optional.empty();
            for (InetSocketAddress address : addresses) {
              Optional<AddressPolicy.Denial> denial =
                  address.getAddress() == null
                      ? Optional.empty()
                      : policy.denial(address.getAddress());
              if (denial.isEmpty()) {
                allowed.add(address);
              } else if (denied.isEmpty()) {
                denied = denial;
              }
            }
            if (allowed.isEmpty() && denied.isPresent()) {
              promise.failed(new AddressDeniedException(host, denied.get()));
            } else {
              promise.succeeded(allowed);
            }
          }

          @Override
          public void failed(Throwable failure) {
            promise.failed(failure);
          }
        });
  }

  /** No address of the host may be connected to: what the crawl log says of the URL. */
  static final class AddressDeniedException extends IOException {
    private static final long serialVersionUID = 1L;

    AddressDeniedException(String host, AddressPolicy.Denial denial) {
      super(host + ": " + denial.detail());
    }
  }
}
