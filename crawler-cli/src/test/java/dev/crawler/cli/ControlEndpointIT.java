package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.ops.ControlEndpoint;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.ManagementServer;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operators' commands on the management port: read-only without a token, a bearer token to issue
 * one, and the command then on every partition of crawl.control, as the {@code crawler} command
 * would send it.
 */
class ControlEndpointIT {

  @TempDir Path dataDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void issuesCommandsWithATokenAndListsWhatOperatorsHold() throws Exception {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 3)) {
      Topics topics = Topics.create(new HttpSchemaRegistryClient(cluster.schemaRegistryUrl()));
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
        new TopicInstaller(admin, Duration.ofSeconds(30)).install(topics.all(), 3, (short) 1);
      }
      Map<String, Object> kafka =
          Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      HealthCheck up = new HealthCheck("service", Optional::empty);
      try (ManagementServer readOnly =
              ManagementServer.start(
                  0,
                  up,
                  List.of(),
                  registry,
                  Optional.of(new ControlEndpoint(kafka, topics, Optional.empty(), "fetcher")));
          ManagementServer writable =
              ManagementServer.start(
                  0,
                  up,
                  List.of(),
                  registry,
                  Optional.of(
                      new ControlEndpoint(
                          kafka, topics, Optional.of("s3cret-token"), "fetcher")))) {
        String pause =
            "{\"command\":\"pause\",\"target\":\"https://www.example.org\",\"by\":\"ticket-42\"}";

        assertThat(post(readOnly, pause, "s3cret-token").statusCode()).isEqualTo(403);
        assertThat(post(writable, pause, null).statusCode()).isEqualTo(401);
        assertThat(post(writable, pause, "wrong").statusCode()).isEqualTo(401);
        assertThat(post(writable, "{\"command\":\"stop\",\"target\":\"*\"}", "s3cret-token").body())
            .contains("command: one of pause");
        HttpResponse<String> accepted = post(writable, pause, "s3cret-token");
        HttpResponse<String> delay =
            post(
                writable,
                "{\"command\":\"delay\",\"target\":\"example.net\",\"delayMs\":2500}",
                "s3cret-token");

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(accepted.body())
            .contains("\"commandId\"")
            .contains("pause https://www.example.org");
        assertThat(delay.statusCode()).isEqualTo(202);
        OperatorHolds holds = ControlTopic.holds(kafka, topics);
        assertThat(holds.isPaused("https://www.example.org")).isTrue();
        assertThat(holds.delayMillisOf("https://shop.example.net")).hasValue(2500);
        assertThat(
                holds
                    .newest(OperatorHolds.Kind.PAUSE, "https://www.example.org")
                    .orElseThrow()
                    .issuedBy())
            .startsWith("ticket-42 via fetcher from 127.0.0.1");
        HttpResponse<String> listed =
            http.send(
                HttpRequest.newBuilder(URI.create(base(readOnly) + "/control")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body())
            .contains("\"target\":\"https://www.example.org\"")
            .contains("\"target\":\"site:example.net\"")
            .contains("\"writable\":false");
      }
    }
  }

  private HttpResponse<String> post(ManagementServer server, String body, String token)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base(server) + "/control"))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String base(ManagementServer server) {
    return "http://127.0.0.1:" + server.port();
  }
}
