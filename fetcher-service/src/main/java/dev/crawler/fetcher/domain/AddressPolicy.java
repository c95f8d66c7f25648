package dev.crawler.fetcher.domain;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses the fetcher may connect to: every address but those of the ranges that are not
 * the open internet (loopback, private networks, carrier-grade NAT, link-local, unique-local,
 * multicast, reserved and documentation ranges, after the IANA special-purpose address registries),
 * more ranges an operator denies ({@code fetcher.address.deny}), less those an operator allows
 * ({@code fetcher.address.allow}, which win). An IPv6 address that carries an IPv4 one (IPv4-mapped
 * {@code ::ffff:0:0/96}, IPv4-compatible {@code ::/96}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code
 * 2002::/16}) is judged by the IPv4 address too, so a denied one cannot be reached in disguise.
 * Immutable and thread-safe.
 */
public final class AddressPolicy {

  /** What a refusal names: the address and the range it is in. */
  public record Denial(InetAddress address, AddressRange range, Optional<InetAddress> carried) {

    /** {@code 10.1.2.3 is in 10.0.0.0/8 (private, RFC 1918)}, or as carried by an IPv6 address. */
    public String detail() {
      return AddressRange.text(address)
          + carried.map(v4 -> " (which carries " + v4.getHostAddress() + ")").orElse("")
          + " is in "
          + range;
    }
  }

  /** The ranges denied unless allowed: not the open internet. */
  public static final List<AddressRange> DENIED_BY_DEFAULT =
      List.of(
          AddressRange.parse("0.0.0.0/8", "this network, unspecified"),
          AddressRange.parse("10.0.0.0/8", "private, RFC 1918"),
          AddressRange.parse("100.64.0.0/10", "carrier-grade NAT"),
          AddressRange.parse("127.0.0.0/8", "loopback"),
          AddressRange.parse("169.254.0.0/16", "link-local, cloud metadata"),
          AddressRange.parse("172.16.0.0/12", "private, RFC 1918"),
          AddressRange.parse("192.0.0.0/24", "IETF protocol assignments"),
          AddressRange.parse("192.0.2.0/24", "documentation"),
          AddressRange.parse("192.88.99.0/24", "6to4 relay anycast"),
          AddressRange.parse("192.168.0.0/16", "private, RFC 1918"),
          AddressRange.parse("198.18.0.0/15", "benchmarking"),
          AddressRange.parse("198.51.100.0/24", "documentation"),
          AddressRange.parse("203.0.113.0/24", "documentation"),
          AddressRange.parse("224.0.0.0/4", "multicast"),
          AddressRange.parse("240.0.0.0/4", "reserved, broadcast"),
          AddressRange.parse("::/128", "unspecified"),
          AddressRange.parse("::1/128", "loopback"),
          AddressRange.parse("64:ff9b:1::/48", "local-use NAT64"),
          AddressRange.parse("100::/64", "discard-only"),
          AddressRange.parse("2001::/23", "IETF protocol assignments, Teredo"),
          AddressRange.parse("2001:db8::/32", "documentation"),
          AddressRange.parse("3fff::/20", "documentation"),
          AddressRange.parse("fc00::/7", "unique-local"),
          AddressRange.parse("fe80::/10", "link-local"),
          AddressRange.parse("fec0::/10", "site-local"),
          AddressRange.parse("ff00::/8", "multicast"));

  /**
   * The forms of IPv6 address that carry an IPv4 one, and where its bytes are. (An IPv4-mapped
   * address, {@code ::ffff:0:0/96}, is an {@code Inet4Address} already: Java maps it itself.)
   */
  private static final List<Carrier> CARRIERS =
      List.of(
          new Carrier(AddressRange.parse("64:ff9b::/96", "NAT64"), 12),
          new Carrier(AddressRange.parse("2002::/16", "6to4"), 2),
          new Carrier(AddressRange.parse("::/96", "IPv4-compatible"), 12));

  private record Carrier(AddressRange range, int offset) {}

  private final List<AddressRange> allowed;
  private final List<AddressRange> denied;

  private AddressPolicy(List<AddressRange> allowed, List<AddressRange> denied) {
    this.allowed = List.copyOf(allowed);
    this.denied = List.copyOf(denied);
  }

  /** The default policy: the ranges above denied, nothing allowed besides. */
  public static AddressPolicy defaults() {
    return of(List.of(), List.of());
  }

  /**
   * The policy of the settings.
   *
   * @param allow CIDR ranges allowed despite the deny list
   * @param deny CIDR ranges denied on top of the defaults
   * @throws IllegalArgumentException naming the first range that is not one
   */
  public static AddressPolicy of(List<String> allow, List<String> deny) {
    List<AddressRange> denied = new ArrayList<>(DENIED_BY_DEFAULT);
    deny.stream().filter(range -> !range.isBlank()).map(AddressRange::parse).forEach(denied::add);
    return new AddressPolicy(
        allow.stream().filter(range -> !range.isBlank()).map(AddressRange::parse).toList(), denied);
  }

  /** This policy, with these exact addresses allowed too (a local crawl's own seeds). */
  public AddressPolicy allowing(List<InetAddress> addresses) {
    List<AddressRange> more = new ArrayList<>(allowed);
    for (InetAddress address : addresses) {
      more.add(
          new AddressRange(
              address.getAddress(), address.getAddress().length * 8, AddressRange.text(address)));
    }
    return new AddressPolicy(more, denied);
  }

  /** Why the fetcher may not connect to this address; empty when it may. */
  public Optional<Denial> denial(InetAddress address) {
    if (isAllowed(address)) {
      return Optional.empty();
    }
    for (AddressRange range : denied) {
      if (range.contains(address)) {
        return Optional.of(new Denial(address, range, Optional.empty()));
      }
    }
    Optional<InetAddress> carried = carriedIpv4(address);
    if (carried.isPresent() && !isAllowed(carried.get())) {
      for (AddressRange range : denied) {
        if (range.contains(carried.get())) {
          return Optional.of(new Denial(address, range, carried));
        }
      }
    }
    return Optional.empty();
  }

  private boolean isAllowed(InetAddress address) {
    for (AddressRange range : allowed) {
      if (range.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /** The IPv4 address an IPv6 address carries, if it is of a form that carries one. */
  static Optional<InetAddress> carriedIpv4(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return Optional.empty();
    }
    byte[] bytes = address.getAddress();
    for (Carrier carrier : CARRIERS) {
      if (carrier.range().contains(address)) {
        try {
          return Optional.of(
              InetAddress.getByAddress(
                  Arrays.copyOfRange(bytes, carrier.offset(), carrier.offset() + 4)));
        } catch (UnknownHostException e) {
          throw new IllegalStateException("four bytes are an IPv4 address", e);
        }
      }
    }
    return Optional.empty();
  }

  /** The ranges allowed despite the deny list. */
  public List<AddressRange> allowed() {
    return allowed;
  }
}
