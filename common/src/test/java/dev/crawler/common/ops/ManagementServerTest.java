package dev.crawler.common.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ManagementServerTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<Optional<String>> stall = new AtomicReference<>(Optional.empty());
  private final HealthCheck alive = new HealthCheck("service", stall::get);
  private final AtomicReference<Optional<String>> kafka = new AtomicReference<>(Optional.empty());
  private ManagementServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void answersReadyOnlyWhileEveryCheckHoldsAndTheServiceIsNotStopping() throws Exception {
    server =
        ManagementServer.start(
            0,
            alive,
            List.of(
                new HealthCheck("kafka", kafka::get), HealthCheck.of("schema-registry", () -> {})),
            registry);

    assertThat(get(ManagementServer.READY_PATH))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(200);
    assertThat(get(ManagementServer.READY_PATH).body())
        .isEqualTo("{\"status\":\"UP\",\"checks\":{\"kafka\":\"UP\",\"schema-registry\":\"UP\"}}");

    kafka.set(Optional.of("no connection to any Kafka broker"));
    HttpResponse<String> down = get(ManagementServer.READY_PATH);
    assertThat(down.statusCode()).isEqualTo(503);
    assertThat(down.body())
        .contains("\"status\":\"DOWN\"", "\"kafka\":\"no connection to any Kafka broker\"");

    kafka.set(Optional.empty());
    server.stopping();
    assertThat(get(ManagementServer.READY_PATH).statusCode())
        .as("stopping: no more work")
        .isEqualTo(503);
    assertThat(get(ManagementServer.LIVE_PATH).statusCode())
        .as("still alive while it stops")
        .isEqualTo(200);
  }

  @Test
  void answersNotLiveWithWhatIsWrongWhenTheServiceCannotWork() throws Exception {
    server = ManagementServer.start(0, alive, List.of(), registry);
    assertThat(get(ManagementServer.LIVE_PATH).body())
        .isEqualTo("{\"status\":\"UP\",\"checks\":{\"service\":\"UP\"}}");

    stall.set(Optional.of("no progress for 121 s (bound 120 s) while 5 records behind on t-0"));

    HttpResponse<String> dead = get(ManagementServer.LIVE_PATH);
    assertThat(dead.statusCode()).isEqualTo(503);
    assertThat(dead.body())
        .isEqualTo(
            "{\"status\":\"DOWN\",\"checks\":{\"service\":\"no progress for 121 s (bound 120 s)"
                + " while 5 records behind on t-0\"}}");
  }

  @Test
  void aFailingCheckIsReportedWithWhatItThrew() throws Exception {
    server =
        ManagementServer.start(
            0,
            alive,
            List.of(
                HealthCheck.of(
                    "schema-registry",
                    () -> {
                      throw new IllegalStateException("registry answered 500");
                    })),
            registry);

    assertThat(get(ManagementServer.READY_PATH).body())
        .contains("\"schema-registry\":\"registry answered 500\"");
  }

  @Test
  void servesMetricsInThePrometheusTextFormat() throws Exception {
    Counter.builder("crawler.outcomes").tag("outcome", "COMMITTED").register(registry).increment(3);
    server = ManagementServer.start(0, alive, List.of(), registry);

    HttpResponse<String> metrics = get(ManagementServer.METRICS_PATH);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    assertThat(metrics.body()).contains("crawler_outcomes_total{outcome=\"COMMITTED\"} 3.0");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
