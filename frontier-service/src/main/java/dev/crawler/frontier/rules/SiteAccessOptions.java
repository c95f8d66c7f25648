package dev.crawler.frontier.rules;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.schemas.options.Access;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reads the access options of {@code crawl.yaml} (headers, auth, login, proxy) and refuses what
 * would put a secret where it does not belong: a password, a credential header or a secret login
 * field given inline instead of as a reference ({@code ${env:NAME}}, {@code ${file:/path}}), or a
 * line break in a value.
 */
final class SiteAccessOptions {

  /** The most headers a site's options set. */
  static final int MAX_HEADERS = 32;

  /** The longest header or field value, in characters. */
  static final int MAX_VALUE_CHARS = 8192;

  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** Headers the crawler sets itself, or that would break the exchange. */
  private static final Set<String> RESERVED =
      Set.of(
          "host",
          "content-length",
          "transfer-encoding",
          "connection",
          "upgrade",
          "te",
          "accept-encoding",
          "if-none-match",
          "if-modified-since");

  private SiteAccessOptions() {}

  static List<Access.Header> headers(Object value) {
    Map<String, Object> map = mapping(value, "a mapping of header names to values");
    if (map.size() > MAX_HEADERS) {
      throw new IllegalArgumentException("at most " + MAX_HEADERS + " headers, not " + map.size());
    }
    return map.entrySet().stream()
        .map(
            entry -> {
              String name = entry.getKey().strip();
              if (!TOKEN.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not a header name");
              }
              if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(
                    name + " is set by the crawler itself; it cannot be configured");
              }
              String text = text(entry.getValue(), name);
              Access.Header header = new Access.Header(name, text);
              if (Access.isCredentialHeader(name) && !Access.hasReference(text)) {
                throw inline(name);
              }
              return header;
            })
        .toList();
  }

  static Optional<Access.Auth> auth(Object value) {
    Map<String, Object> map = mapping(value, "{scheme, user, password}");
    known(map, Set.of("scheme", "user", "password"));
    String scheme = map.containsKey("scheme") ? text(map.get("scheme"), "scheme") : "basic";
    Access.AuthScheme type;
    try {
      type = Access.AuthScheme.valueOf(scheme.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("scheme '" + scheme + "' is not basic or digest");
    }
    String user = required(map, "user");
    String password = required(map, "password");
    if (!Access.isReference(password)) {
      throw inline("password");
    }
    return Optional.of(new Access.Auth(type, user, password.strip()));
  }

  static Optional<Access.Login> login(Object value) {
    Map<String, Object> map = mapping(value, "{url, method, fields, success-cookie, success-text}");
    known(map, Set.of("url", "method", "fields", "success-cookie", "success-text"));
    String url = required(map, "url");
    if (UrlNormalizer.tryNormalize(url).isEmpty() || !url.matches("(?i)https?://.+")) {
      throw new IllegalArgumentException("url: '" + url + "' is not an absolute http(s) URL");
    }
    String method = map.containsKey("method") ? text(map.get("method"), "method") : "post";
    if (!method.equalsIgnoreCase("post") && !method.equalsIgnoreCase("get")) {
      throw new IllegalArgumentException("method '" + method + "' is not post or get");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (map.containsKey("fields")) {
      mapping(map.get("fields"), "fields: a mapping of form fields to values")
          .forEach(
              (name, field) -> {
                String text = text(field, "fields." + name);
                if (Access.namesSecret(name) && !Access.hasReference(text)) {
                  throw inline("fields." + name);
                }
                fields.put(name, text);
              });
    }
    Optional<String> cookie =
        Optional.ofNullable(map.get("success-cookie")).map(v -> text(v, "success-cookie"));
    Optional<String> text =
        Optional.ofNullable(map.get("success-text")).map(v -> text(v, "success-text"));
    if (cookie.isEmpty() && text.isEmpty()) {
      throw new IllegalArgumentException(
          "say how a login is known to have succeeded: success-cookie or success-text");
    }
    return Optional.of(
        new Access.Login(
            UrlNormalizer.tryNormalize(url).get(),
            method.toLowerCase(Locale.ROOT),
            fields,
            cookie,
            text));
  }

  static Optional<Access.Proxy> proxy(Object value) {
    if (!(value instanceof Map)) {
      String url = text(value, "proxy");
      if (url.equalsIgnoreCase("direct") || url.equalsIgnoreCase("none")) {
        return Optional.empty();
      }
      return Optional.of(Access.proxy(url, Optional.empty(), Optional.empty()));
    }
    Map<String, Object> map = mapping(value, "{url, user, password}");
    known(map, Set.of("url", "user", "password"));
    Optional<String> user = Optional.ofNullable(map.get("user")).map(v -> text(v, "user"));
    Optional<String> password =
        Optional.ofNullable(map.get("password")).map(v -> text(v, "password").strip());
    if (password.isPresent() && !Access.isReference(password.get())) {
      throw inline("password");
    }
    if (password.isPresent() != user.isPresent()) {
      throw new IllegalArgumentException("give both user and password, or neither");
    }
    return Optional.of(Access.proxy(required(map, "url"), user, password));
  }

  private static IllegalArgumentException inline(String what) {
    return new IllegalArgumentException(
        what
            + " is a credential: give it as a reference, ${env:NAME} or ${file:/path}, never"
            + " inline");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> mapping(Object value, String expected) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException("expected " + expected);
    }
    return (Map<String, Object>) map;
  }

  private static void known(Map<String, Object> map, Set<String> keys) {
    for (String key : map.keySet()) {
      if (!keys.contains(key)) {
        throw new IllegalArgumentException(
            "unknown key '" + key + "'; expected one of " + new TreeSet<>(keys));
      }
    }
  }

  private static String required(Map<String, Object> map, String key) {
    if (!map.containsKey(key)) {
      throw new IllegalArgumentException(key + " is missing");
    }
    return text(map.get(key), key);
  }

  private static String text(Object value, String what) {
    if (value instanceof Map || value instanceof List) {
      throw new IllegalArgumentException(what + ": expected a single value");
    }
    String text = String.valueOf(value);
    if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
      throw new IllegalArgumentException(what + ": a value holds no line break");
    }
    if (text.length() > MAX_VALUE_CHARS) {
      throw new IllegalArgumentException(what + ": longer than " + MAX_VALUE_CHARS + " characters");
    }
    if (text.contains("${") && Access.references(text).isEmpty()) {
      throw new IllegalArgumentException(
          what + ": a reference is ${env:NAME} or ${file:/absolute/path}");
    }
    return text;
  }
}
