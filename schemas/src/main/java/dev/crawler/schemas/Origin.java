package dev.crawler.schemas;

import java.net.IDN;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The origin of a URL, {@code scheme://host[:port]} (RFC 6454): the unit of politeness and the
 * partition key of every origin-keyed topic.
 *
 * <p>{@link #of(String)} is the one function that computes it: scheme and host lower-cased ({@link
 * Locale#ROOT}), internationalized host names converted to their ASCII (punycode) form, a trailing
 * dot on the host removed, user info dropped, and the port elided when it is the scheme's default.
 * It never resolves host names (no DNS) and is safe to call from any thread.
 *
 * @param scheme lower-case scheme, e.g. {@code https}
 * @param host lower-case ASCII host; IPv6 literals keep their brackets, e.g. {@code [::1]}
 * @param port the explicit port, or -1 when it is the scheme's default
 */
public record Origin(String scheme, String host, int port) {

  /** The longest host name DNS allows (RFC 1035). */
  private static final int MAX_HOST_LENGTH = 253;

  public Origin {
    if (port < -1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }

  /**
   * The origin of an absolute URL.
   *
   * @throws InvalidUrlException when the URL has no scheme, no {@code //authority}, an empty or
   *     malformed host, or a port that is not a number from 0 to 65535
   */
  public static Origin of(String url) {
    String trimmed = url.strip();
    int colon = trimmed.indexOf(':');
    if (colon <= 0 || !isScheme(trimmed, colon)) {
      throw new InvalidUrlException(url, "no scheme");
    }
    String scheme = trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
    if (!trimmed.startsWith("//", colon + 1)) {
      throw new InvalidUrlException(url, "no //authority after the scheme");
    }
    int authorityStart = colon + 3;
    int authorityEnd = authorityStart;
    while (authorityEnd < trimmed.length() && "/?#\\".indexOf(trimmed.charAt(authorityEnd)) < 0) {
      authorityEnd++;
    }
    String authority = trimmed.substring(authorityStart, authorityEnd);
    // user info is not part of the origin, and may itself contain ':'
    String hostPort = authority.substring(authority.lastIndexOf('@') + 1);

    String host;
    @Nullable String portText;
    if (hostPort.startsWith("[")) {
      int close = hostPort.indexOf(']');
      if (close < 0) {
        throw new InvalidUrlException(url, "unterminated IPv6 literal");
      }
      host = hostPort.substring(0, close + 1).toLowerCase(Locale.ROOT);
      String rest = hostPort.substring(close + 1);
      if (!rest.isEmpty() && !rest.startsWith(":")) {
        throw new InvalidUrlException(url, "unexpected text after the IPv6 literal");
      }
      portText = rest.isEmpty() ? null : rest.substring(1);
      if (!host.substring(1, host.length() - 1).matches("[0-9a-f:.]+")) {
        throw new InvalidUrlException(url, "malformed IPv6 literal " + host);
      }
    } else {
      int portColon = hostPort.lastIndexOf(':');
      host = portColon < 0 ? hostPort : hostPort.substring(0, portColon);
      portText = portColon < 0 ? null : hostPort.substring(portColon + 1);
      host = asciiHost(url, host);
    }
    return new Origin(scheme, host, explicitPort(url, scheme, portText));
  }

  /** {@code of(url).key()}: the partition key for a URL. */
  public static String keyOf(String url) {
    return of(url).key();
  }

  /**
   * The origin key of a normalized URL whose record may be keyed by it already: {@code key} when
   * the URL begins with it and its path, query or end comes next, else {@link #keyOf(String)}.
   */
  public static String keyOf(String url, @Nullable String key) {
    if (key != null && url.startsWith(key)) {
      int next = key.length();
      if (next == url.length() || "/?#".indexOf(url.charAt(next)) >= 0) {
        return key;
      }
    }
    return keyOf(url);
  }

  /** The origin as a string, {@code scheme://host[:port]}: the partition key. */
  public String key() {
    return port == -1 ? scheme + "://" + host : scheme + "://" + host + ":" + port;
  }

  @Override
  public String toString() {
    return key();
  }

  /** The port a connection goes to: the explicit one, else the scheme's default, else -1. */
  public int effectivePort() {
    return port != -1 ? port : defaultPort(scheme);
  }

  private static boolean isScheme(String s, int end) {
    if (!isAsciiLetter(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < end; i++) {
      char c = s.charAt(i);
      if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static String asciiHost(String url, String rawHost) {
    String host = rawHost.endsWith(".") ? rawHost.substring(0, rawHost.length() - 1) : rawHost;
    if (host.isEmpty()) {
      throw new InvalidUrlException(url, "empty host");
    }
    if (host.startsWith(".") || host.contains("..")) {
      throw new InvalidUrlException(url, "host '" + host + "' has an empty label");
    }
    String ascii;
    if (isPlainAscii(host)) {
      // nothing for IDNA to convert (the common case, and
      // IDN.toASCII's cost was a tenth of the frontier's thread)
      ascii = host.toLowerCase(Locale.ROOT);
      checkLabelLengths(url, host);
    } else {
      try {
        ascii = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
      } catch (IllegalArgumentException e) {
        throw new InvalidUrlException(
            url, "host '" + host + "' is not a valid domain name: " + e.getMessage());
      }
    }
    if (ascii.isEmpty() || ascii.length() > MAX_HOST_LENGTH) {
      throw new InvalidUrlException(
          url, "host '" + host + "' is empty or longer than " + MAX_HOST_LENGTH);
    }
    for (int i = 0; i < ascii.length(); i++) {
      char c = ascii.charAt(i);
      // underscores are not valid in host names but are common in real ones; browsers accept them
      boolean allowed =
          (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
      if (!allowed) {
        throw new InvalidUrlException(url, "host '" + host + "' contains '" + c + "'");
      }
    }
    return ascii;
  }

  /**
   * Whether a host has only the characters of an ASCII host name, which IDNA leaves as they are.
   */
  private static boolean isPlainAscii(String host) {
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '.'
              || c == '_';
      if (!plain) {
        return false;
      }
    }
    return true;
  }

  /**
   * A DNS label is at most 63 characters (RFC 1035), as IDN.toASCII checks for the hosts it
   * converts.
   */
  private static void checkLabelLengths(String url, String host) {
    int start = 0;
    while (start <= host.length()) {
      int end = host.indexOf('.', start);
      if (end < 0) {
        end = host.length();
      }
      if (end - start > 63) {
        throw new InvalidUrlException(
            url,
            "host '" + host + "' is not a valid domain name: a label is longer than 63 characters");
      }
      start = end + 1;
    }
  }

  private static int explicitPort(String url, String scheme, @Nullable String portText) {
    if (portText == null || portText.isEmpty()) {
      return -1;
    }
    if (portText.length() > 5 || !portText.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidUrlException(url, "port '" + portText + "' is not a number from 0 to 65535");
    }
    int port = Integer.parseInt(portText);
    if (port > 65535) {
      throw new InvalidUrlException(url, "port " + port + " is above 65535");
    }
    return port == defaultPort(scheme) ? -1 : port;
  }

  private static int defaultPort(String scheme) {
    return switch (scheme) {
      case "http", "ws" -> 80;
      case "https", "wss" -> 443;
      case "ftp" -> 21;
      default -> -1;
    };
  }
}
