package dev.crawler.schemas.options;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a site is reached: the values of the options {@code headers}, {@code auth}, {@code login} and
 * {@code proxy} as fetch requests carry them. Secrets are never values here: a password, a token or
 * a secret header is a <em>reference</em>, {@code ${env:NAME}} or {@code ${file:/path}}, that only
 * the fetcher resolves, so no secret crosses a topic, a log line or {@code crawler explain}.
 *
 * <p>On the wire each value is lines of {@code key=value} (headers: {@code Name: value}); values
 * hold no line breaks (the configuration refuses them).
 */
public final class Access {

  /** {@code ${env:NAME}} or {@code ${file:/absolute/path}}. */
  public static final Pattern REFERENCE = Pattern.compile("\\$\\{(env|file):([^}\\s]+)}");

  /**
   * The headers whose values are credentials by their name, lower case: the request's {@code
   * Authorization}, {@code Proxy-Authorization} and {@code Cookie}, the response's {@code
   * Set-Cookie} and {@code Set-Cookie2}. The one list of them ({@link #isCredentialHeader}).
   */
  private static final Set<String> CREDENTIAL_HEADERS =
      Set.of(
          "authorization", "proxy-authorization", "cookie", "cookie2", "set-cookie", "set-cookie2");

  private Access() {}

  /** A request header a site's requests carry. */
  public record Header(String name, String value) {

    /**
     * Whether the header carries a credential: its name is one ({@link #isCredentialHeader}) or its
     * value holds a secret reference (an API key). Such a header is sent only to its origin, and
     * only over verified TLS unless plain http is allowed.
     */
    public boolean isCredential() {
      return isCredentialHeader(name) || hasReference(value);
    }
  }

  /** HTTP authentication schemes. */
  public enum AuthScheme {
    BASIC,
    DIGEST
  }

  /** HTTP authentication for a site: the password is a reference. */
  public record Auth(AuthScheme scheme, String user, String password) {}

  /**
   * A form login: the {@code fields} are sent to {@code url} by {@code method} (post or get),
   * before the site's first page and again when the session is over. It succeeded when the site set
   * the cookie {@code successCookie}, or when the answer (after its redirects within the origin)
   * contains {@code successText}; at least one is given.
   */
  public record Login(
      String url,
      String method,
      Map<String, String> fields,
      Optional<String> successCookie,
      Optional<String> successText) {
    public Login {
      fields = Map.copyOf(new LinkedHashMap<>(fields));
    }
  }

  /** Proxy kinds. */
  public enum ProxyScheme {
    /** An HTTP proxy: absolute-form requests for http, CONNECT tunnels for https. */
    HTTP,
    /** A SOCKS5 proxy (RFC 1928), with user name and password (RFC 1929) when given. */
    SOCKS5
  }

  /** A proxy the site's requests go through; the password, if any, is a reference. */
  public record Proxy(
      ProxyScheme scheme, String host, int port, Optional<String> user, Optional<String> password) {

    /** {@code socks5://host:port}, never with its credentials. */
    @Override
    public String toString() {
      String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
      return scheme.name().toLowerCase(Locale.ROOT) + "://" + name + ":" + port;
    }
  }

  /**
   * Whether a header's value is a credential by the header's name alone, whatever the site: {@code
   * Authorization}, {@code Proxy-Authorization}, {@code Cookie}, {@code Set-Cookie}, {@code
   * Set-Cookie2} (case-insensitive). A site's own header is a credential too when its value is a
   * reference ({@link Header#isCredential()}). Such values are configured as references only and
   * never recorded.
   */
  public static boolean isCredentialHeader(String name) {
    return CREDENTIAL_HEADERS.contains(name.toLowerCase(Locale.ROOT));
  }

  /** Whether a value holds a secret reference. */
  public static boolean hasReference(String value) {
    return REFERENCE.matcher(value).find();
  }

  /** Whether a value is exactly one secret reference. */
  public static boolean isReference(String value) {
    return REFERENCE.matcher(value.strip()).matches();
  }

  /** The references a value holds, as written ({@code ${env:TOKEN}}). */
  public static List<String> references(String value) {
    List<String> found = new ArrayList<>();
    Matcher matcher = REFERENCE.matcher(value);
    while (matcher.find()) {
      found.add(matcher.group());
    }
    return found;
  }

  /** Whether a login field or header name says it holds a secret. */
  public static boolean namesSecret(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.contains("pass")
        || lower.contains("secret")
        || lower.contains("token")
        || lower.contains("key")
        || isCredentialHeader(lower);
  }

  static String writeHeaders(List<Header> headers) {
    StringBuilder text = new StringBuilder();
    for (Header header : headers) {
      text.append(header.name()).append(": ").append(header.value()).append('\n');
    }
    return text.toString();
  }

  static List<Header> readHeaders(String text) {
    List<Header> headers = new ArrayList<>();
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.add(
            new Header(line.substring(0, colon).strip(), line.substring(colon + 1).strip()));
      }
    }
    return List.copyOf(headers);
  }

  static String writeAuth(Optional<Auth> auth) {
    if (auth.isEmpty()) {
      return "";
    }
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("scheme", auth.get().scheme().name().toLowerCase(Locale.ROOT));
    fields.put("user", auth.get().user());
    fields.put("password", auth.get().password());
    return lines(fields);
  }

  static Optional<Auth> readAuth(String text) {
    Map<String, String> fields = fields(text);
    if (fields.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Auth(
            AuthScheme.valueOf(fields.get("scheme").toUpperCase(Locale.ROOT)),
            fields.getOrDefault("user", ""),
            fields.getOrDefault("password", "")));
  }

  static String writeLogin(Optional<Login> login) {
    if (login.isEmpty()) {
      return "";
    }
    Login l = login.get();
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("url", l.url());
    fields.put("method", l.method());
    l.successCookie().ifPresent(cookie -> fields.put("success-cookie", cookie));
    l.successText().ifPresent(text -> fields.put("success-text", text));
    l.fields().forEach((name, value) -> fields.put("field." + name, value));
    return lines(fields);
  }

  static Optional<Login> readLogin(String text) {
    Map<String, String> fields = fields(text);
    if (!fields.containsKey("url")) {
      return Optional.empty();
    }
    Map<String, String> form = new LinkedHashMap<>();
    fields.forEach(
        (key, value) -> {
          if (key.startsWith("field.")) {
            form.put(key.substring("field.".length()), value);
          }
        });
    return Optional.of(
        new Login(
            fields.get("url"),
            fields.getOrDefault("method", "post"),
            form,
            Optional.ofNullable(fields.get("success-cookie")),
            Optional.ofNullable(fields.get("success-text"))));
  }

  static String writeProxy(Optional<Proxy> proxy) {
    if (proxy.isEmpty()) {
      return "";
    }
    Proxy p = proxy.get();
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("url", p.toString());
    p.user().ifPresent(user -> fields.put("user", user));
    p.password().ifPresent(password -> fields.put("password", password));
    return lines(fields);
  }

  static Optional<Proxy> readProxy(String text) {
    Map<String, String> fields = fields(text);
    if (!fields.containsKey("url")) {
      return Optional.empty();
    }
    return Optional.of(
        proxy(
            fields.get("url"),
            Optional.ofNullable(fields.get("user")),
            Optional.ofNullable(fields.get("password"))));
  }

  /**
   * A proxy from its URL, {@code http://host:port} or {@code socks5://host:port}.
   *
   * @throws IllegalArgumentException saying what is wrong with the URL
   */
  public static Proxy proxy(String url, Optional<String> user, Optional<String> password) {
    Matcher matcher =
        Pattern.compile("(?i)(http|socks5)://([^:/@\\s]+|\\[[0-9a-fA-F:.]+]):(\\d{1,5})/?")
            .matcher(url.strip());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "'" + url + "' is not a proxy URL: http://host:port or socks5://host:port");
    }
    int port = Integer.parseInt(matcher.group(3));
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
    }
    String host = matcher.group(2);
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
    }
    return new Proxy(
        ProxyScheme.valueOf(matcher.group(1).toUpperCase(Locale.ROOT)),
        host.toLowerCase(Locale.ROOT),
        port,
        user,
        password);
  }

  private static String lines(Map<String, String> fields) {
    StringBuilder text = new StringBuilder();
    fields.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    return text.toString();
  }

  private static Map<String, String> fields(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        fields.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return fields;
  }
}
