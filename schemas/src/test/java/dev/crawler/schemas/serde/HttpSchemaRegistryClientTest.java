package dev.crawler.schemas.serde;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.DiscoveredUrl;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HttpSchemaRegistryClientTest {

  @Test
  void anUnreachableRegistryIsReportedWithItsUrl() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    HttpSchemaRegistryClient client =
        new HttpSchemaRegistryClient("http://127.0.0.1:" + closedPort + "/apis/ccompat/v7/");

    assertThatThrownBy(
            () -> client.register("crawl.discovered-value", DiscoveredUrl.getClassSchema()))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining(
            "POST http://127.0.0.1:"
                + closedPort
                + "/apis/ccompat/v7/subjects/crawl.discovered-value/versions");
    assertThatThrownBy(() -> client.schemaById(3))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining(
            "GET http://127.0.0.1:" + closedPort + "/apis/ccompat/v7/schemas/ids/3");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0} conflicts before the answer -> id {1}")
  @org.junit.jupiter.params.provider.CsvSource({"0, 7", "1, 7", "4, 7", "5, -1"})
  void retriesTheConflictOfTwoFirstRegistrationsButNotAnIncompatibleSchema(
      int conflicts, int expected) throws IOException {
    AtomicInteger posts = new AtomicInteger();
    com.sun.net.httpserver.HttpServer server =
        com.sun.net.httpserver.HttpServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          boolean conflict = posts.incrementAndGet() <= conflicts;
          byte[] body =
              (conflict ? "{\"error_code\":409,\"message\":\"already exists\"}" : "{\"id\":7}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(conflict ? 409 : 200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try {
      HttpSchemaRegistryClient client =
          new HttpSchemaRegistryClient("http://127.0.0.1:" + server.getAddress().getPort());
      if (expected < 0) {
        assertThatThrownBy(() -> client.register("t-value", DiscoveredUrl.getClassSchema()))
            .isInstanceOf(SchemaRegistryException.class)
            .hasMessageContaining("409");
        org.assertj.core.api.Assertions.assertThat(posts.get())
            .isEqualTo(HttpSchemaRegistryClient.REGISTER_ATTEMPTS);
      } else {
        org.assertj.core.api.Assertions.assertThat(
                client.register("t-value", DiscoveredUrl.getClassSchema()))
            .isEqualTo(expected);
      }
    } finally {
      server.stop(0);
    }
  }
}
