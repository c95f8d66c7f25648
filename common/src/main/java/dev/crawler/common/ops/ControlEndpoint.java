package dev.crawler.common.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.crawler.common.control.ControlTopic;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.options.Bounds;
import dev.crawler.schemas.options.RequestOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operators' commands over the management port, for automation: {@code GET /control} answers what
 * operators hold (read from {@code crawl.control}); {@code POST /control} with {@code
 * Authorization: Bearer TOKEN} issues a command as {@code crawler pause|resume|block|unblock|delay|
 * cookies clear} do, and answers {@code 202} with its id at once (each frontier task and fetcher
 * acknowledges it in {@code crawl.log}). Without a token configured ({@code
 * management.control.token}) the endpoint is read-only: a POST is {@code 403}; a wrong or missing
 * token is {@code 401}. The body: {@code {"command": "pause", "target": "https://a.example" |
 * "example.org" | "*", "deleteDocuments": false, "delayMs": 2000, "by": "ticket-42"}}.
 */
public final class ControlEndpoint implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ControlEndpoint.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The largest request body read. */
  static final int MAX_BODY_BYTES = 16 * 1024;

  private final Map<String, Object> kafka;
  private final Topics topics;
  private final Optional<byte[]> token;
  private final String service;

  /**
   * @param token the bearer token a POST must carry; empty for a read-only endpoint
   */
  public ControlEndpoint(
      Map<String, Object> kafka, Topics topics, Optional<String> token, String service) {
    this.kafka = Map.copyOf(kafka);
    this.topics = topics;
    this.token = token.filter(t -> !t.isBlank()).map(t -> t.getBytes(StandardCharsets.UTF_8));
    this.service = service;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      switch (exchange.getRequestMethod()) {
        case "GET" -> holds(exchange);
        case "POST" -> command(exchange);
        default -> {
          exchange.getResponseHeaders().add("Allow", "GET, POST");
          answer(exchange, 405, Map.of("error", "GET or POST"));
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("management /control failed: {}", e.toString());
      answer(exchange, 500, Map.of("error", e.getClass().getSimpleName()));
    }
  }

  private void holds(HttpExchange exchange) throws IOException {
    List<Map<String, Object>> holds =
        ControlTopic.holds(kafka, topics).inForce().stream()
            .map(
                hold -> {
                  Map<String, Object> line = new LinkedHashMap<>();
                  line.put("kind", hold.kind().name().toLowerCase(Locale.ROOT));
                  line.put("target", hold.target());
                  line.put("value", hold.value());
                  line.put("issuedAt", Instant.ofEpochMilli(hold.issuedAt()).toString());
                  line.put("issuedBy", hold.issuedBy());
                  line.put("commandId", hold.commandId());
                  return line;
                })
            .toList();
    answer(exchange, 200, Map.of("holds", holds, "writable", token.isPresent()));
  }

  private void command(HttpExchange exchange) throws IOException {
    if (token.isEmpty()) {
      answer(exchange, 403, Map.of("error", "read-only: management.control.token is not set"));
      return;
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    byte[] given =
        authorization != null && authorization.startsWith("Bearer ")
            ? authorization.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8)
            : new byte[0];
    if (!MessageDigest.isEqual(given, token.get())) {
      answer(exchange, 401, Map.of("error", "a bearer token is required"));
      return;
    }
    JsonNode body;
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        answer(exchange, 413, Map.of("error", "more than " + MAX_BODY_BYTES + " bytes"));
        return;
      }
      body = JSON.readTree(bytes);
    } catch (IOException e) {
      answer(exchange, 400, Map.of("error", "not JSON"));
      return;
    }
    ControlCommand command;
    try {
      command = commandOf(body, exchange.getRemoteAddress().getAddress().getHostAddress());
    } catch (IllegalArgumentException e) {
      answer(exchange, 400, Map.of("error", e.getMessage()));
      return;
    }
    try {
      ControlTopic.broadcast(kafka, topics, command);
      ControlTopic.logIssued(kafka, topics, command);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer(exchange, 503, Map.of("error", "interrupted"));
      return;
    } catch (ExecutionException e) {
      answer(exchange, 503, Map.of("error", "Kafka refused the command: " + e.getCause()));
      return;
    }
    LOG.info("{} (command {})", ControlTopic.describe(command), command.getCommandId());
    answer(
        exchange,
        202,
        Map.of(
            "commandId",
            command.getCommandId(),
            "command",
            ControlTopic.describe(command),
            "acknowledgements",
            "crawl.log, outcome OPERATOR, naming the command id"));
  }

  private ControlCommand commandOf(JsonNode body, String remote) {
    String name = body.path("command").asText("");
    ControlCommandType type =
        switch (name) {
          case "pause" -> ControlCommandType.PAUSE;
          case "resume" -> ControlCommandType.RESUME;
          case "block" -> ControlCommandType.BLOCK;
          case "unblock" -> ControlCommandType.UNBLOCK;
          case "delay" -> ControlCommandType.SET_DELAY;
          case "clear-cookies" -> ControlCommandType.CLEAR_COOKIES;
          default ->
              throw new IllegalArgumentException(
                  "command: one of pause, resume, block, unblock, delay, clear-cookies");
        };
    if (!body.hasNonNull("target")) {
      throw new IllegalArgumentException("target: an origin, a site, or *");
    }
    String target = ControlTopic.targetOf(body.get("target").asText());
    long delay = -1;
    if (type == ControlCommandType.SET_DELAY && body.hasNonNull("delayMs")) {
      delay = body.get("delayMs").asLong(-2);
      Bounds bounds = RequestOptions.DELAY_MS.bounds().orElseThrow();
      if (!bounds.contains(delay)) {
        throw new IllegalArgumentException("delayMs: " + bounds);
      }
    }
    String by = body.path("by").asText("").strip();
    return ControlCommand.newBuilder()
        .setCommand(type)
        .setTarget(target)
        .setDeleteDocuments(body.path("deleteDocuments").asBoolean(false))
        .setDelayMillis(delay)
        .setCommandId(UUID.randomUUID().toString())
        .setIssuedAt(Instant.now())
        .setIssuedBy(
            (by.isEmpty() ? "management API" : by.substring(0, Math.min(by.length(), 200)))
                + " via "
                + service
                + " from "
                + remote)
        .build();
  }

  private static void answer(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
