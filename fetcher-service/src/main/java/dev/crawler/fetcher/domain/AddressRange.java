package dev.crawler.fetcher.domain;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A range of IP addresses in CIDR notation ({@code 10.0.0.0/8}, {@code fc00::/7}, or one address:
 * {@code 127.0.0.1}, {@code ::1}), with a name saying what it is. Parsed without any name lookup:
 * only address literals are accepted. Immutable.
 *
 * @param network the range's first address, its bits beyond the prefix cleared
 * @param prefix the prefix length in bits
 * @param name what the range is, for the crawl log ({@code loopback}, {@code private (RFC 1918)})
 */
public record AddressRange(byte[] network, int prefix, String name) {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  public AddressRange {
    network = network.clone();
    if (prefix < 0 || prefix > network.length * 8) {
      throw new IllegalArgumentException("prefix /" + prefix + " is too long for the address");
    }
    clearHostBits(network, prefix);
  }

  /**
   * Parses {@code address/prefix}, or one address.
   *
   * @throws IllegalArgumentException naming the text when it is not a range of address literals
   */
  public static AddressRange parse(String cidr, String name) {
    String text = cidr.strip();
    int slash = text.indexOf('/');
    String literal = slash < 0 ? text : text.substring(0, slash);
    byte[] address = literal(literal, text);
    int prefix;
    try {
      prefix = slash < 0 ? address.length * 8 : Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not an address range (address/prefix): " + text);
    }
    if (prefix < 0 || prefix > address.length * 8) {
      throw new IllegalArgumentException("not an address range, prefix out of bounds: " + text);
    }
    return new AddressRange(address, prefix, name);
  }

  /** Parses one range given by an operator: its name is its own text. */
  public static AddressRange parse(String cidr) {
    return parse(cidr, cidr.strip());
  }

  private static byte[] literal(String literal, String text) {
    if (!IPV4.matcher(literal).matches() && !IPV6.matcher(literal).matches()) {
      throw new IllegalArgumentException("not an IP address range: " + text);
    }
    try {
      // a literal: no name is looked up
      byte[] bytes = InetAddress.getByName(literal).getAddress();
      if (bytes.length == 4 && literal.contains(":")) {
        // an IPv4-mapped IPv6 literal (::ffff:a.b.c.d), which Java reads as the IPv4 address: kept
        // as written, 16 bytes
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(bytes, 0, mapped, 12, 4);
        return mapped;
      }
      return bytes;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IP address range: " + text);
    }
  }

  /** The range's first address (a copy). */
  @Override
  public byte[] network() {
    return network.clone();
  }

  /** Whether the address is in this range (an IPv4 address is never in an IPv6 range). */
  public boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length != network.length) {
      return false;
    }
    byte[] masked = bytes.clone();
    clearHostBits(masked, prefix);
    return Arrays.equals(masked, network);
  }

  /** Whether this is a range of IPv4 addresses. */
  public boolean isIpv4() {
    return network.length == 4;
  }

  private static void clearHostBits(byte[] address, int prefix) {
    for (int bit = prefix; bit < address.length * 8; bit++) {
      address[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    }
  }

  /** The range in CIDR notation. */
  public String cidr() {
    try {
      return text(InetAddress.getByAddress(network)) + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException("an address of 4 or 16 bytes", e);
    }
  }

  /** An address as people write it: IPv6 in its shortest form ({@code fe80::1}). */
  public static String text(InetAddress address) {
    return address instanceof Inet4Address
        ? address.getHostAddress()
        : compact(address.getHostAddress().replaceFirst("%.*$", ""));
  }

  /** The shortest form of an IPv6 address: the longest run of zero groups as {@code ::}. */
  static String compact(String full) {
    String[] groups = full.split(":");
    for (int i = 0; i < groups.length; i++) {
      groups[i] = groups[i].replaceFirst("^0+(?=.)", "");
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < groups.length; ) {
      int j = i;
      while (j < groups.length && groups[j].equals("0")) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = j == i ? i + 1 : j;
    }
    if (bestStart < 0) {
      return String.join(":", groups);
    }
    String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
    String tail =
        String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
    return head + "::" + tail;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof AddressRange range
        && prefix == range.prefix
        && Arrays.equals(network, range.network);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(network) + prefix;
  }

  @Override
  public String toString() {
    return cidr() + " (" + name + ")";
  }
}
