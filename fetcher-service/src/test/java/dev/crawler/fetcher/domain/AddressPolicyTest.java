package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressPolicyTest {

  private final AddressPolicy defaults = AddressPolicy.defaults();

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    // the open internet
    "93.184.215.14, ",
    "8.8.8.8, ",
    "2606:4700:4700::1111, ",
    "100.63.255.255, ",
    "100.128.0.0, ",
    "172.15.255.255, ",
    "172.32.0.0, ",
    "64:ff9b::808:808, ",
    "2002:808:808::1, ",
    // not the open internet
    "0.0.0.0, '0.0.0.0/8 (this network, unspecified)'",
    "10.1.2.3, '10.0.0.0/8 (private, RFC 1918)'",
    "100.64.0.1, 100.64.0.0/10 (carrier-grade NAT)",
    "100.127.255.254, 100.64.0.0/10 (carrier-grade NAT)",
    "127.0.0.1, 127.0.0.0/8 (loopback)",
    "127.0.0.2, 127.0.0.0/8 (loopback)",
    "169.254.169.254, '169.254.0.0/16 (link-local, cloud metadata)'",
    "172.16.0.1, '172.16.0.0/12 (private, RFC 1918)'",
    "172.31.255.255, '172.16.0.0/12 (private, RFC 1918)'",
    "192.168.1.1, '192.168.0.0/16 (private, RFC 1918)'",
    "192.0.2.10, 192.0.2.0/24 (documentation)",
    "198.18.0.1, 198.18.0.0/15 (benchmarking)",
    "224.0.0.251, 224.0.0.0/4 (multicast)",
    "255.255.255.255, '240.0.0.0/4 (reserved, broadcast)'",
    "::, ::/128 (unspecified)",
    "::1, ::1/128 (loopback)",
    "fd00:ec2::254, fc00::/7 (unique-local)",
    "fe80::1, fe80::/10 (link-local)",
    "ff02::1, ff00::/8 (multicast)",
    "2001:db8::1, 2001:db8::/32 (documentation)",
    "2001:0:4136:e378::1, '2001::/23 (IETF protocol assignments, Teredo)'",
    // IPv4 ones carried by IPv6 forms
    "::ffff:127.0.0.1, 127.0.0.0/8 (loopback)",
    "::ffff:169.254.169.254, '169.254.0.0/16 (link-local, cloud metadata)'",
    "64:ff9b::a9fe:a9fe, '169.254.0.0/16 (link-local, cloud metadata)'",
    "64:ff9b::a00:1, '10.0.0.0/8 (private, RFC 1918)'",
    "2002:a9fe:a9fe::1, '169.254.0.0/16 (link-local, cloud metadata)'",
    "2002:7f00:1::, 127.0.0.0/8 (loopback)",
    "::127.0.0.1, 127.0.0.0/8 (loopback)",
  })
  void deniesEveryRangeThatIsNotTheOpenInternet(String address, String range) throws Exception {
    var denial = defaults.denial(InetAddress.getByName(address));

    if (range == null) {
      assertThat(denial).isEmpty();
    } else {
      assertThat(denial).hasValueSatisfying(d -> assertThat(d.range()).hasToString(range));
    }
  }

  @ParameterizedTest
  @CsvSource({
    "64:ff9b::a9fe:a9fe, '64:ff9b::a9fe:a9fe (which carries 169.254.169.254) is in 169.254.0.0/16 (link-local, cloud metadata)'",
    "10.1.2.3, '10.1.2.3 is in 10.0.0.0/8 (private, RFC 1918)'",
  })
  void saysWhichAddressAndWhichRange(String address, String detail) throws Exception {
    assertThat(defaults.denial(InetAddress.getByName(address)))
        .hasValueSatisfying(d -> assertThat(d.detail()).isEqualTo(detail));
  }

  @ParameterizedTest(name = "allow {0}, deny {1}: {2} {3}")
  @CsvSource({
    "127.0.0.1/32, , 127.0.0.1, true",
    "127.0.0.1/32, , 127.0.0.2, false",
    "10.20.0.0/16, , 10.20.3.4, true",
    "10.20.0.0/16, , 10.21.3.4, false",
    "::1, , ::1, true",
    "127.0.0.1, , ::ffff:127.0.0.1, true",
    ", 93.184.215.0/24, 93.184.215.14, false",
    ", 93.184.215.0/24, 93.184.216.14, true",
    ", 2606:4700::/32, 2606:4700:4700::1111, false",
    // allowed wins over denied
    "93.184.215.14/32, 93.184.215.0/24, 93.184.215.14, true",
  })
  void operatorsAllowAndDenyMoreRanges(String allow, String deny, String address, boolean allowed)
      throws Exception {
    AddressPolicy policy =
        AddressPolicy.of(
            allow == null ? List.of() : List.of(allow), deny == null ? List.of() : List.of(deny));

    assertThat(policy.denial(InetAddress.getByName(address)).isEmpty()).isEqualTo(allowed);
  }

  @ParameterizedTest
  @CsvSource({
    "localhost",
    "example.org/32",
    "10.0.0.0/33",
    "10.0.0.0/-1",
    "::1/129",
    "10.0.0/8",
    "10.0.0.0/x",
    "300.1.1.1",
  })
  void refusesWhatIsNotARangeOfAddressLiteralsNamingIt(String range) {
    assertThatThrownBy(() -> AddressPolicy.of(List.of(range), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(range);
  }

  @ParameterizedTest
  @CsvSource({"10.1.2.3/8, 10.0.0.0/8", "fd12:3456::1/7, fc00::/7", "::1, ::1/128"})
  void aRangeIsItsNetwork(String text, String cidr) {
    assertThat(AddressRange.parse(text).cidr()).isEqualTo(cidr);
  }

  @ParameterizedTest
  @CsvSource({"127.0.0.1, 127.0.0.2", "::1, 127.0.0.1"})
  void aLocalCrawlAllowsItsSeedsAddressesExactly(String seed, String other) throws Exception {
    AddressPolicy policy = defaults.allowing(List.of(InetAddress.getByName(seed)));

    assertThat(policy.denial(InetAddress.getByName(seed))).isEmpty();
    assertThat(policy.denial(InetAddress.getByName(other))).isPresent();
  }
}
