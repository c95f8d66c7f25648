package dev.crawler.schemas.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * A client for any registry that speaks the Confluent Schema Registry REST API (Confluent Schema
 * Registry, Apicurio Registry's {@code /apis/ccompat/v7}, Karapace).
 *
 * <p>Ids are cached for the life of the client, both ways, so the registry is asked once per schema
 * and subject. Thread-safe. Errors name the URL and the status the registry answered.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String baseUrl;
  private final HttpClient http;
  private final Optional<String> authorization;
  private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
  private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

  /**
   * @param baseUrl the API root, e.g. {@code http://localhost:8081} for Confluent or {@code
   *     http://localhost:8080/apis/ccompat/v7} for Apicurio; a trailing slash is ignored
   */
  public HttpSchemaRegistryClient(String baseUrl) {
    this(baseUrl, RegistryAccess.ANONYMOUS);
  }

  /**
   * @param baseUrl the API root; user info in it ({@code https://user:password@host/}) is never
   *     sent as part of a URL nor printed: it counts only as credentials, when {@code access} says
   *     they come from the URL
   * @param access the credentials and TLS stores the registry asks for
   */
  public HttpSchemaRegistryClient(String baseUrl, RegistryAccess access) {
    String url = RegistryAccess.redacted(baseUrl);
    this.baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(TIMEOUT);
    access.tls().ifPresent(builder::sslContext);
    this.http = builder.build();
    this.authorization = access.authorization();
  }

  /** The API root this client talks to. */
  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public int register(String subject, Schema schema) {
    Map<Schema, Integer> ids =
        idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>());
    Integer cached = ids.get(schema);
    if (cached != null) {
      return cached;
    }
    String url =
        baseUrl + "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions";
    String body;
    try {
      body = JSON.writeValueAsString(Map.of("schema", schema.toString()));
    } catch (IOException e) {
      throw new SchemaRegistryException("cannot encode schema for " + url, e);
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Content-Type", CONTENT_TYPE)
            .header("Accept", CONTENT_TYPE)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    int id = -1;
    for (int attempt = 1; id < 0; attempt++) {
      try {
        id = send("POST", url, request).path("id").asInt(-1);
        break;
      } catch (SchemaRegistryException e) {
        // two services registering the first schema of a subject at the same
        // moment: Apicurio's Confluent API answers the one that lost the race
        // 409 "already exists"; asked again, it gives the id. An incompatible
        // schema answers 409 every time, so it still fails after the retries.
        if (e.status() != 409 || attempt >= REGISTER_ATTEMPTS) {
          throw e;
        }
        pause(attempt);
      }
    }
    if (id < 0) {
      throw new SchemaRegistryException(
          "schema registry POST " + url + " answered without an id", 200);
    }
    ids.put(schema, id);
    schemasById.putIfAbsent(id, schema);
    return id;
  }

  /**
   * How often a registration answered 409 is tried, for the race described in {@link #register}.
   */
  static final int REGISTER_ATTEMPTS = 5;

  private static void pause(int attempt) {
    try {
      Thread.sleep(50L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException("interrupted while registering a schema", e);
    }
  }

  @Override
  public void checkReachable() {
    String url = baseUrl + "/subjects";
    send(
        "GET",
        url,
        HttpRequest.newBuilder(URI.create(url))
            .timeout(PROBE_TIMEOUT)
            .header("Accept", CONTENT_TYPE)
            .GET()
            .build());
  }

  /** How long a reachability check waits: less than a probe's timeout. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  @Override
  public Schema schemaById(int id) {
    Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    String url = baseUrl + "/schemas/ids/" + id;
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT)
            .header("Accept", CONTENT_TYPE)
            .GET()
            .build();
    JsonNode answer = send("GET", url, request);
    String type = answer.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new SchemaRegistryException(
          "schema " + id + " at " + url + " is " + type + ", not AVRO", 200);
    }
    Schema schema;
    try {
      schema = new Schema.Parser().parse(answer.path("schema").asText());
    } catch (RuntimeException e) {
      throw new SchemaRegistryException(
          "schema " + id + " at " + url + " is not a valid Avro schema", e);
    }
    Schema previous = schemasById.putIfAbsent(id, schema);
    return previous != null ? previous : schema;
  }

  private JsonNode send(String method, String url, HttpRequest unauthenticated) {
    HttpRequest request =
        authorization
            .map(
                value ->
                    HttpRequest.newBuilder(unauthenticated, (name, v) -> true)
                        .header("Authorization", value)
                        .build())
            .orElse(unauthenticated);
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new SchemaRegistryException(
          "schema registry " + method + " " + url + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException(
          "interrupted during schema registry " + method + " " + url, e);
    }
    if (response.statusCode() / 100 != 2) {
      throw new SchemaRegistryException(
          "schema registry "
              + method
              + " "
              + url
              + " answered "
              + response.statusCode()
              + ": "
              + abbreviate(response.body())
              + (response.statusCode() == 401 || response.statusCode() == 403
                  ? " (the registry wants credentials it accepts:"
                      + " schema.registry.basic.auth.user.info or schema.registry.bearer.auth.token)"
                  : ""),
          response.statusCode());
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new SchemaRegistryException(
          "schema registry " + method + " " + url + " answered with malformed JSON", e);
    }
  }

  private static String abbreviate(String body) {
    return body.length() <= 500 ? body : body.substring(0, 500) + "…";
  }
}
