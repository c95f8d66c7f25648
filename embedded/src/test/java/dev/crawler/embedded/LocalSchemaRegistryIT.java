package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.schemas.serde.AvroSerde;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import dev.crawler.schemas.serde.SchemaRegistryException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry the embedded mode runs in its own JVM, through the Confluent REST API. */
class LocalSchemaRegistryIT {

  @TempDir Path workDir;

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void registersAndServesSchemasToAnyClient() {
    try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(workDir, 0)) {
      assertThat(registry.url()).startsWith("http://127.0.0.1:");
      HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(registry.url());
      client.checkReachable();

      int id = client.register("crawl.discovered-value", DiscoveredUrl.getClassSchema());

      assertThat(client.register("crawl.discovered-value", DiscoveredUrl.getClassSchema()))
          .isEqualTo(id);
      assertThat(new HttpSchemaRegistryClient(registry.url()).schemaById(id))
          .isEqualTo(DiscoveredUrl.getClassSchema());
    }
  }

  @Test
  void aRecordWrittenBeforeARestartIsReadAfterIt() {
    DiscoveredUrl url;
    byte[] written;
    try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(workDir, 0)) {
      var client = new HttpSchemaRegistryClient(registry.url());
      client.register("crawl.outcomes-value", CrawlOutcome.getClassSchema());
      var serde = AvroSerde.forValues(client, DiscoveredUrl.class); // trusts the event classes
      url =
          DiscoveredUrl.newBuilder()
              .setUrl("http://127.0.0.1/a")
              .setDepth(2)
              .setDiscoveredAt(java.time.Instant.ofEpochMilli(1_000))
              .build();
      written = serde.serializer().serialize("crawl.discovered", url);
    }
    try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(workDir, 0)) {
      var client = new HttpSchemaRegistryClient(registry.url());
      assertThat(
              AvroSerde.forValues(client, DiscoveredUrl.class)
                  .deserializer()
                  .deserialize("crawl.discovered", written))
          .isEqualTo(url);
    }
  }

  @Test
  void answersTheConfluentApisLookupsAndErrors() throws Exception {
    try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(workDir, 0)) {
      String base = registry.url();
      var client = new HttpSchemaRegistryClient(base);
      int id = client.register("t-value", DiscoveredUrl.getClassSchema());
      String schemaRequest =
          JSON.createObjectNode()
              .put("schema", DiscoveredUrl.getClassSchema().toString())
              .toString();

      assertThat(get(base + "/subjects").body()).isEqualTo("[\"t-value\"]");
      assertThat(get(base + "/subjects/t-value/versions").body()).isEqualTo("[1]");
      JsonNode latest = JSON.readTree(get(base + "/subjects/t-value/versions/latest").body());
      assertThat(latest.path("subject").asText()).isEqualTo("t-value");
      assertThat(latest.path("version").asInt()).isEqualTo(1);
      assertThat(latest.path("id").asInt()).isEqualTo(id);
      JsonNode found = JSON.readTree(post(base + "/subjects/t-value", schemaRequest).body());
      assertThat(found.path("id").asInt()).isEqualTo(id);
      assertThat(JSON.readTree(get(base + "/config").body()).path("compatibilityLevel").asText())
          .isEqualTo("BACKWARD");

      assertError(get(base + "/schemas/ids/999"), 404, 40403);
      assertError(get(base + "/schemas/ids/x"), 404, 40403);
      assertError(post(base + "/subjects", schemaRequest), 405, 405);
      assertError(get(base + "/nothing/here"), 404, 404);
      assertError(get(base + "/subjects/nothing/versions"), 404, 40401);
      assertError(get(base + "/subjects/t-value/versions/2"), 404, 40402);
      assertError(post(base + "/subjects/other-value", schemaRequest), 404, 40401);
      assertThat(
              JSON.readTree(get(base + "/subjects/t-value/versions/-1").body()).path("id").asInt())
          .isEqualTo(id);
      assertError(get(base + "/subjects/t-value/versions/0"), 422, 42202);
      assertError(get(base + "/subjects/t-value/versions/x"), 422, 42202);
      String wrongDefault =
          "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"n\", \"type\": \"int\","
              + " \"default\": \"x\"}]}";
      assertError(
          post(
              base + "/subjects/t-value/versions",
              JSON.createObjectNode().put("schema", wrongDefault).toString()),
          422,
          42201);
      assertError(
          post(base + "/subjects/t-value/versions", "{\"schema\": \"{\\\"type\\\": 3}\"}"),
          422,
          42201);
      assertError(post(base + "/subjects/t-value/versions", "not json"), 422, 42201);
      assertError(
          post(
              base + "/subjects/t-value/versions", "{\"schema\": \"x\", \"schemaType\": \"JSON\"}"),
          422,
          42201);
      assertError(
          post(
              base + "/subjects/t-value/versions",
              "x".repeat(LocalSchemaRegistry.MAX_BODY_BYTES + 1)),
          413,
          413);
      assertThat(client.schemaById(id)).isEqualTo(DiscoveredUrl.getClassSchema());
    }
  }

  @Test
  void refusesAnIncompatibleNewVersion() {
    try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(workDir, 0)) {
      var client = new HttpSchemaRegistryClient(registry.url());
      client.register(
          "p-value", SchemaBuilder.record("Page").fields().requiredString("url").endRecord());

      assertThatThrownBy(
              () ->
                  client.register(
                      "p-value",
                      SchemaBuilder.record("Page")
                          .fields()
                          .requiredString("url")
                          .requiredInt("depth")
                          .endRecord()))
          .isInstanceOf(SchemaRegistryException.class)
          .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409))
          .hasMessageContaining("incompatible");
    }
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String url, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void assertError(HttpResponse<String> response, int status, int code)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(JSON.readTree(response.body()).path("error_code").asInt()).isEqualTo(code);
  }
}
