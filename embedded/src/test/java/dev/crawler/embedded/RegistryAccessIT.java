package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.RegistryAccess;
import dev.crawler.schemas.serde.SchemaRegistryException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry client against a registry that refuses anonymous requests, over TLS with its own
 * certificate authority: the real embedded registry behind a gate that asks for HTTP basic
 * authentication or a bearer token, as managed registries do. No secret may appear in what the
 * client says when it fails.
 */
class RegistryAccessIT {

  private static final String USER_INFO = "crawler:s3cr3t-pass";
  private static final String TOKEN = "t0ken-9f8e7d";
  private static final Set<String> SECRETS = Set.of("s3cr3t-pass", TOKEN, "trust-secret");

  @TempDir static Path work;

  private static EmbeddedSchemaRegistry registry;
  private static HttpsServer gate;
  private static String url;

  @BeforeAll
  static void start() throws Exception {
    registry = EmbeddedSchemaRegistry.start(work);
    gate = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    gate.setHttpsConfigurator(new HttpsConfigurator(serverTls()));
    HttpClient upstream = HttpClient.newHttpClient();
    String basic =
        "Basic " + Base64.getEncoder().encodeToString(USER_INFO.getBytes(StandardCharsets.UTF_8));
    gate.createContext(
        "/",
        exchange -> {
          String given = exchange.getRequestHeaders().getFirst("Authorization");
          if (!basic.equals(given) && !("Bearer " + TOKEN).equals(given)) {
            byte[] refusal =
                "{\"error_code\":401,\"message\":\"Unauthorized\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(401, refusal.length);
            exchange.getResponseBody().write(refusal);
            exchange.close();
            return;
          }
          String path = exchange.getRequestURI().getRawPath().replaceFirst("^/registry", "");
          byte[] body = exchange.getRequestBody().readAllBytes();
          HttpRequest.Builder forward =
              HttpRequest.newBuilder(URI.create(registry.url() + path))
                  .method(
                      exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
          String type = exchange.getRequestHeaders().getFirst("Content-Type");
          if (type != null) {
            forward.header("Content-Type", type);
          }
          try {
            HttpResponse<byte[]> answer =
                upstream.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            exchange.sendResponseHeaders(answer.statusCode(), answer.body().length);
            exchange.getResponseBody().write(answer.body());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(503, -1);
          }
          exchange.close();
        });
    gate.start();
    url = "https://127.0.0.1:" + gate.getAddress().getPort() + "/registry";
  }

  @AfterAll
  static void stop() {
    if (gate != null) {
      gate.stop(0);
    }
    if (registry != null) {
      registry.close();
    }
  }

  @Test
  void basicAuthenticationOverTlsRegistersAndReadsSchemas() {
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient(url, access(Map.of("basic.auth.user.info", USER_INFO)));

    int id = client.register("crawl.discovered-value", DiscoveredUrl.getClassSchema());

    assertThat(id).isPositive();
    assertThat(
            new HttpSchemaRegistryClient(url, access(Map.of("basic.auth.user.info", USER_INFO)))
                .schemaById(id))
        .isEqualTo(DiscoveredUrl.getClassSchema());
    client.checkReachable();
  }

  @Test
  void aBearerTokenWorksAlike() {
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient(url, access(Map.of("bearer.auth.token", TOKEN)));

    assertThat(client.register("crawl.log-value", DiscoveredUrl.getClassSchema())).isPositive();
  }

  @Test
  void credentialsInTheUrlAreUsedAndNeverPrinted() {
    String withUserInfo = url.replace("https://", "https://" + USER_INFO + "@");
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient(
            withUserInfo, access(withUserInfo, Map.of("basic.auth.credentials.source", "URL")));

    assertThat(client.register("crawl.outcomes-value", DiscoveredUrl.getClassSchema()))
        .isPositive();
    assertThat(client.baseUrl()).isEqualTo(url);
    assertThatThrownBy(() -> client.schemaById(987_654))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(RegistryAccessIT::namesNoSecret);
  }

  @Test
  void anAnonymousClientIsRefusedAndTheRefusalSaysWhatToSet() {
    HttpSchemaRegistryClient anonymous = new HttpSchemaRegistryClient(url, access(Map.of()));

    assertThatThrownBy(() -> anonymous.register("t-value", DiscoveredUrl.getClassSchema()))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("401")
        .satisfies(RegistryAccessIT::namesNoSecret);
    HttpSchemaRegistryClient wrong =
        new HttpSchemaRegistryClient(url, access(Map.of("basic.auth.user.info", "crawler:nope")));
    assertThatThrownBy(wrong::checkReachable)
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("401")
        .satisfies(error -> assertThat(error.getMessage()).doesNotContain("nope"));
  }

  @Test
  void aRegistryWhoseCertificateTheTruststoreDoesNotVouchForIsRefused() throws Exception {
    RegistryAccess other =
        RegistryAccess.of(
            url,
            Map.of(
                "basic.auth.user.info",
                USER_INFO,
                "ssl.truststore.location",
                resource("tls/other-trust.p12").toString(),
                "ssl.truststore.password",
                "trust-secret"));

    assertThatThrownBy(
            () ->
                new HttpSchemaRegistryClient(url, other)
                    .register("t-value", DiscoveredUrl.getClassSchema()))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(RegistryAccessIT::namesNoSecret);
  }

  @Test
  void aStoreThatCannotBeOpenedIsNamedWithoutItsPassword() throws Exception {
    assertThatThrownBy(
            () ->
                RegistryAccess.of(
                    url,
                    Map.of(
                        "ssl.truststore.location",
                        resource("tls/registry-trust.p12").toString(),
                        "ssl.truststore.password",
                        "not-the-trust-secret")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ssl.truststore.location")
        .satisfies(error -> assertThat(error.getMessage()).doesNotContain("not-the-trust-secret"));
  }

  private static void namesNoSecret(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      for (String secret : SECRETS) {
        assertThat(message).doesNotContain(secret);
      }
    }
  }

  /** The access with the registry's truststore, and these settings besides. */
  private static RegistryAccess access(Map<String, String> settings) {
    return access(url, settings);
  }

  private static RegistryAccess access(String registryUrl, Map<String, String> settings) {
    try {
      Map<String, String> all = new HashMap<>(settings);
      all.put("ssl.truststore.location", resource("tls/registry-trust.p12").toString());
      all.put("ssl.truststore.password", "trust-secret");
      return RegistryAccess.of(registryUrl, all);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path resource(String name) throws Exception {
    return Path.of(RegistryAccessIT.class.getClassLoader().getResource(name).toURI());
  }

  private static SSLContext serverTls() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(resource("tls/registry-server.p12"))) {
      store.load(in, "server-secret".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "server-secret".toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }
}
