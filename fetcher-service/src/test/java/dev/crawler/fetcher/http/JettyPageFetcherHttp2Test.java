package dev.crawler.fetcher.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.FetchAttempt;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetcher speaks HTTP/2 to a server offering it over TLS (ALPN) and reads a self-signed site.
 */
class JettyPageFetcherHttp2Test {

  @TempDir static Path keys;

  private static Server server;
  private static String base;
  private static JettyPageFetcher fetcher;

  @BeforeAll
  static void start() throws Exception {
    Path keyStore = keys.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process =
        new ProcessBuilder(
                keytool,
                "-genkeypair",
                "-alias",
                "test",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                "secret",
                "-keypass",
                "secret",
                "-dname",
                "CN=127.0.0.1")
            .redirectErrorStream(true)
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue())
        .as(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isZero();

    server = new Server();
    HttpConfiguration config = new HttpConfiguration();
    config.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStorePath(keyStore.toString());
    tls.setKeyStorePassword("secret");
    tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
    ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
    alpn.setDefaultProtocol("http/1.1");
    ServerConnector connector =
        new ServerConnector(
            server,
            new SslConnectionFactory(tls, alpn.getProtocol()),
            alpn,
            new HTTP2ServerConnectionFactory(config),
            new HttpConnectionFactory(config));
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=UTF-8");
            response.write(
                true,
                ByteBuffer.wrap(
                    request.getConnectionMetaData().getProtocol().getBytes(StandardCharsets.UTF_8)),
                callback);
            return true;
          }
        });
    server.start();
    base = "https://127.0.0.1:" + connector.getLocalPort();
    fetcher =
        JettyPageFetcher.builder("test-bot/1.0")
            .maxBodyBytes(1024)
            .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10))
            .maxConnections(16)
            .addresses(AddressPolicy.of(List.of("127.0.0.1"), List.of()))
            .bodies(new BodyBudget(64L * 1024 * 1024))
            .recordsExchanges(false)
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    fetcher.close();
    server.stop();
  }

  @Test
  void speaksHttp2WhereTheServerOffersIt() throws Exception {
    FetchAttempt attempt = fetcher.get(base + "/", Map.of(), 0).get(20, TimeUnit.SECONDS);

    assertThat(attempt)
        .isInstanceOfSatisfying(
            FetchAttempt.Response.class,
            response -> {
              assertThat(response.status()).isEqualTo(200);
              assertThat(new String(response.body(), StandardCharsets.UTF_8))
                  .as("the protocol the server saw")
                  .isEqualTo("HTTP/2.0");
              assertThat(response.redirectChain()).isEqualTo(List.of());
            });
  }
}
