package dev.crawler.common.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's management endpoints over HTTP, for Kubernetes probes and Prometheus:
 *
 * <ul>
 *   <li>{@code GET /health/live}: 200 while the service can work, 503 when it has failed for good
 *       or makes no progress though it has work (the pod should be restarted), with what is wrong:
 *       {@code {"status":"DOWN","checks":{"service":"no progress for 121 s …"}}};
 *   <li>{@code GET /health/ready}: 200 when every readiness check holds, else 503; also 503 from
 *       the moment the service is asked to stop. The body is JSON: {@code
 *       {"status":"UP","checks":{"kafka":"UP",…}}}, a failing check with what is wrong;
 *   <li>{@code GET /metrics}: the Prometheus text format of the service's registry;
 *   <li>{@code GET|POST /control}: operators' commands ({@link ControlEndpoint}), when given.
 * </ul>
 *
 * <p>Served by the JDK's HTTP server on two daemon threads, apart from the service's own threads.
 */
public final class ManagementServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ManagementServer.class);

  public static final String LIVE_PATH = "/health/live";
  public static final String READY_PATH = "/health/ready";
  public static final String METRICS_PATH = "/metrics";
  public static final String CONTROL_PATH = "/control";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final HealthCheck liveness;
  private final List<HealthCheck> readiness;
  private final PrometheusMeterRegistry registry;
  private volatile boolean isStopping;

  private ManagementServer(
      HttpServer server,
      HealthCheck liveness,
      List<HealthCheck> readiness,
      PrometheusMeterRegistry registry) {
    this.server = server;
    this.liveness = liveness;
    this.readiness = List.copyOf(readiness);
    this.registry = registry;
  }

  /**
   * Starts serving.
   *
   * @param port the port, on every interface; 0 takes a free one ({@link #port()} tells which)
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static ManagementServer start(
      int port,
      HealthCheck liveness,
      List<HealthCheck> readiness,
      PrometheusMeterRegistry registry) {
    return start(port, liveness, readiness, registry, Optional.empty());
  }

  /** Starts serving, operators' commands on {@value #CONTROL_PATH} included when given. */
  public static ManagementServer start(
      int port,
      HealthCheck liveness,
      List<HealthCheck> readiness,
      PrometheusMeterRegistry registry,
      Optional<com.sun.net.httpserver.HttpHandler> control) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen on management port " + port + ": " + e.getMessage(), e);
    }
    ManagementServer management = new ManagementServer(server, liveness, readiness, registry);
    server.createContext(LIVE_PATH, exchange -> management.answer(exchange, management.live()));
    server.createContext(READY_PATH, exchange -> management.answer(exchange, management.ready()));
    server.createContext(METRICS_PATH, management::metrics);
    control.ifPresent(handler -> server.createContext(CONTROL_PATH, handler));
    server.setExecutor(
        Executors.newFixedThreadPool(
            2,
            task -> {
              Thread thread = new Thread(task, "management-http");
              thread.setDaemon(true);
              return thread;
            }));
    server.start();
    LOG.info(
        "management endpoints on port {}: {}, {}, {}",
        management.port(),
        LIVE_PATH,
        READY_PATH,
        METRICS_PATH);
    return management;
  }

  /** The port the endpoints are served on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** From now on the service is not ready: it is stopping, and should get no more work. */
  public void stopping() {
    isStopping = true;
  }

  /** The liveness answer: status and body. */
  Answer live() {
    return report(false, List.of(liveness));
  }

  /** The readiness answer: status and body, every check run once. */
  Answer ready() {
    return report(isStopping, readiness);
  }

  private static Answer report(boolean isStopping, List<HealthCheck> checks) {
    Map<String, String> results = new LinkedHashMap<>();
    boolean isUp = !isStopping;
    if (isStopping) {
      results.put("service", "stopping");
    }
    for (HealthCheck check : checks) {
      Optional<String> problem;
      try {
        problem = check.problem().get();
      } catch (RuntimeException e) {
        problem = Optional.of(String.valueOf(e));
      }
      isUp &= problem.isEmpty();
      results.put(check.name(), problem.orElse("UP"));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", isUp ? "UP" : "DOWN");
    body.put("checks", results);
    return new Answer(isUp ? 200 : 503, json(body));
  }

  record Answer(int status, String body) {}

  private void answer(HttpExchange exchange, Answer answer) throws IOException {
    send(exchange, answer.status(), "application/json", answer.body());
  }

  private void metrics(HttpExchange exchange) throws IOException {
    send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
  }

  private static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    try (exchange) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      boolean isHead = "HEAD".equals(exchange.getRequestMethod());
      exchange.sendResponseHeaders(status, isHead ? -1 : bytes.length);
      if (!isHead) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  private static String json(Map<String, Object> value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // maps of strings always serialize
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
