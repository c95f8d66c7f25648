package dev.crawler.schemas.serde;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How a client reaches a schema registry that asks who it is: HTTP basic authentication (a user and
 * a password) or a bearer token, and a truststore (the registry's certificate authority) and a
 * keystore (a client certificate) for its TLS, in the conventions of Confluent's serdes ({@code
 * basic.auth.credentials.source} USER_INFO or URL, {@code basic.auth.user.info}, {@code
 * bearer.auth.token}, {@code ssl.truststore.*}, {@code ssl.keystore.*}).
 *
 * <p>The secrets live here only: {@link #toString()}, {@link #redacted(String)} and every message
 * this class or the client makes leave them out.
 */
public final class RegistryAccess {

  /** Settings of this access, as {@link #of(String, Map)} reads them, without a prefix. */
  public static final String BASIC_AUTH_SOURCE = "basic.auth.credentials.source";

  public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
  public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
  public static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
  public static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
  public static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
  public static final String KEYSTORE_LOCATION = "ssl.keystore.location";
  public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
  public static final String KEYSTORE_TYPE = "ssl.keystore.type";
  public static final String KEY_PASSWORD = "ssl.key.password";

  /** No credentials, the JVM's default trust. */
  public static final RegistryAccess ANONYMOUS =
      new RegistryAccess(Optional.empty(), Optional.empty());

  private final Optional<String> authorization;
  private final Optional<SSLContext> tls;

  private RegistryAccess(Optional<String> authorization, Optional<SSLContext> tls) {
    this.authorization = authorization;
    this.tls = tls;
  }

  /**
   * The access the settings give for a registry at {@code url}.
   *
   * @param url the registry's URL; with {@code basic.auth.credentials.source=URL}, its user info
   *     ({@code https://user:password@registry/}) gives the credentials
   * @param settings the settings above, without a prefix; empty or blank values are unset
   * @throws IllegalArgumentException naming the setting (never its value) when one is bad
   */
  public static RegistryAccess of(String url, Map<String, String> settings) {
    String source = setting(settings, BASIC_AUTH_SOURCE).orElse("USER_INFO");
    Optional<String> userInfo;
    switch (source.toUpperCase(Locale.ROOT)) {
      case "USER_INFO" -> userInfo = setting(settings, BASIC_AUTH_USER_INFO);
      case "URL" -> userInfo = userInfo(url);
      default ->
          throw new IllegalArgumentException(
              BASIC_AUTH_SOURCE + " must be USER_INFO or URL, not " + source);
    }
    Optional<String> token = setting(settings, BEARER_AUTH_TOKEN);
    if (userInfo.isPresent() && token.isPresent()) {
      throw new IllegalArgumentException(
          "give either " + BASIC_AUTH_USER_INFO + " or " + BEARER_AUTH_TOKEN + ", not both");
    }
    if (userInfo.isPresent() && !userInfo.get().contains(":")) {
      throw new IllegalArgumentException(
          BASIC_AUTH_USER_INFO + " must be user:password (its value is not shown)");
    }
    Optional<String> authorization =
        userInfo
            .map(
                info ->
                    "Basic "
                        + Base64.getEncoder().encodeToString(info.getBytes(StandardCharsets.UTF_8)))
            .or(() -> token.map(value -> "Bearer " + value));
    return new RegistryAccess(authorization, tls(settings));
  }

  private static Optional<SSLContext> tls(Map<String, String> settings) {
    Optional<String> truststore = setting(settings, TRUSTSTORE_LOCATION);
    Optional<String> keystore = setting(settings, KEYSTORE_LOCATION);
    if (truststore.isEmpty() && keystore.isEmpty()) {
      return Optional.empty();
    }
    try {
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(
          truststore.isEmpty()
              ? null
              : load(
                  TRUSTSTORE_LOCATION,
                  truststore.get(),
                  setting(settings, TRUSTSTORE_TYPE).orElse("PKCS12"),
                  setting(settings, TRUSTSTORE_PASSWORD)));
      KeyManagerFactory keys = null;
      if (keystore.isPresent()) {
        Optional<String> storePassword = setting(settings, KEYSTORE_PASSWORD);
        keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(
            load(
                KEYSTORE_LOCATION,
                keystore.get(),
                setting(settings, KEYSTORE_TYPE).orElse("PKCS12"),
                storePassword),
            setting(settings, KEY_PASSWORD).or(() -> storePassword).orElse("").toCharArray());
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
      return Optional.of(context);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the schema registry's TLS settings do not make a TLS context: "
              + e.getClass().getSimpleName(),
          e);
    }
  }

  private static KeyStore load(
      String setting, String location, String type, Optional<String> password) {
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      KeyStore store = KeyStore.getInstance(type);
      store.load(in, password.map(String::toCharArray).orElse(null));
      return store;
    } catch (IOException | GeneralSecurityException e) {
      // the message names the file, never its password
      throw new IllegalArgumentException(
          setting
              + " "
              + location
              + " cannot be read as a "
              + type
              + " store (wrong password, or"
              + " not a store): "
              + e.getClass().getSimpleName(),
          e);
    }
  }

  private static Optional<String> setting(Map<String, String> settings, String key) {
    return Optional.ofNullable(settings.get(key)).map(String::strip).filter(v -> !v.isEmpty());
  }

  /** The user info of a URL ({@code user:password}), decoded, when it has one. */
  static Optional<String> userInfo(String url) {
    try {
      return Optional.ofNullable(new URI(url).getRawUserInfo())
          .map(raw -> URLDecoder.decode(raw, StandardCharsets.UTF_8));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /** The URL without its user info, for messages and for the requests themselves. */
  public static String redacted(String url) {
    try {
      URI uri = new URI(url);
      if (uri.getRawUserInfo() == null) {
        return url;
      }
      return new URI(
              uri.getScheme(),
              null,
              uri.getHost(),
              uri.getPort(),
              uri.getPath(),
              uri.getQuery(),
              uri.getFragment())
          .toString();
    } catch (URISyntaxException e) {
      return url.replaceFirst("//[^/@]*@", "//");
    }
  }

  /** The {@code Authorization} header's value, when credentials are set. */
  Optional<String> authorization() {
    return authorization;
  }

  /** The TLS context, when a truststore or a keystore is set. */
  Optional<SSLContext> tls() {
    return tls;
  }

  @Override
  public String toString() {
    return "RegistryAccess["
        + authorization
            .map(a -> a.startsWith("Basic") ? "basic auth" : "bearer token")
            .orElse("anonymous")
        + tls.map(t -> ", own TLS stores").orElse("")
        + "]";
  }
}
