package dev.crawler.schemas.serde;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.DiscoveredUrl;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class HttpSchemaRegistryClientTest {

  @Test
  void anUnreachableRegistryIsReportedWithItsUrl() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient("http://127.0.0.1:" + closedPort + "/apis/ccompat/v7/");

    assertThatThrownBy(() -> client.register("crawl.discovered-value", DiscoveredUrl.getClassSchema()))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("POST http://127.0.0.1:" + closedPort + "/apis/ccompat/v7/subjects/crawl.discovered-value/versions");
    assertThatThrownBy(() -> client.schemaById(3))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("GET http://127.0.0.1:" + closedPort + "/apis/ccompat/v7/schemas/ids/3");
  }
}
