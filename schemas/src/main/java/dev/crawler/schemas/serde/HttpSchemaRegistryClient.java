package dev.crawler.schemas.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;
import org.apache.avro.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A client for any registry that speaks the Confluent Schema Registry REST API (Confluent Schema
 * Registry, Apicurio Registry's {@code /apis/ccompat/v7}, Karapace).
 *
 * <p>Ids are cached for the life of the client, both ways, so the registry is asked once per schema
 * and subject. Thread-safe. Errors name the URL and the status the registry answered. An answer is
 * read up to {@value #MAX_ANSWER_BYTES} bytes.
 *
 * <p>Requests go through {@link HttpURLConnection}, which holds no thread of its own between them:
 * a selector thread of {@code java.net.http.HttpClient} (one per client, and every service has one)
 * outlives the client on Java 17, and a thread waiting in native code at exit makes the JVM wait
 * 0.3 s more before it ends. The JVM's proxy settings apply ({@code https.proxyHost}, …); a request
 * is not interrupted by its thread's interruption, only ended by its timeouts.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The largest answer read: a schema, in JSON. */
  static final int MAX_ANSWER_BYTES = 8 << 20;

  private final String baseUrl;
  private final @Nullable SSLSocketFactory tls;
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
    this.tls = access.tls().map(context -> context.getSocketFactory()).orElse(null);
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
    int id = -1;
    for (int attempt = 1; id < 0; attempt++) {
      try {
        id = send("POST", url, body, TIMEOUT).path("id").asInt(-1);
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
    send("GET", baseUrl + "/subjects", null, PROBE_TIMEOUT);
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
    JsonNode answer = send("GET", url, null, TIMEOUT);
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

  private JsonNode send(String method, String url, @Nullable String body, Duration timeout) {
    int status;
    String answer;
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
      if (connection instanceof HttpsURLConnection https && tls != null) {
        https.setSSLSocketFactory(tls);
      }
      connection.setConnectTimeout((int) timeout.toMillis());
      connection.setReadTimeout((int) timeout.toMillis());
      connection.setInstanceFollowRedirects(false); // credentials go to this registry only
      connection.setUseCaches(false);
      connection.setRequestMethod(method);
      connection.setRequestProperty("Accept", CONTENT_TYPE);
      if (authorization.isPresent()) {
        connection.setRequestProperty("Authorization", authorization.get());
      }
      if (body != null) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", CONTENT_TYPE);
        connection.setFixedLengthStreamingMode(bytes.length);
        try (OutputStream out = connection.getOutputStream()) {
          out.write(bytes);
        }
      }
      status = connection.getResponseCode();
      answer = read(status >= 400 ? connection.getErrorStream() : connection.getInputStream());
    } catch (IOException | RuntimeException e) {
      if (connection != null) {
        connection.disconnect(); // not kept for another request
      }
      throw new SchemaRegistryException(
          "schema registry " + method + " " + url + " failed: " + e, e);
    }
    if (status / 100 != 2) {
      throw new SchemaRegistryException(
          "schema registry "
              + method
              + " "
              + url
              + " answered "
              + status
              + ": "
              + abbreviate(answer)
              + (status == 401 || status == 403
                  ? " (the registry wants credentials it accepts:"
                      + " schema.registry.basic.auth.user.info or schema.registry.bearer.auth.token)"
                  : ""),
          status);
    }
    try {
      return JSON.readTree(answer);
    } catch (IOException e) {
      throw new SchemaRegistryException(
          "schema registry " + method + " " + url + " answered with malformed JSON", e);
    }
  }

  /** The answer's body, read to its end (so that the connection is kept for the next request). */
  private static String read(@Nullable InputStream in) throws IOException {
    if (in == null) {
      return "";
    }
    try (in) {
      byte[] bytes = in.readNBytes(MAX_ANSWER_BYTES + 1);
      if (bytes.length > MAX_ANSWER_BYTES) {
        throw new IOException("an answer of more than " + MAX_ANSWER_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  private static String abbreviate(String body) {
    return body.length() <= 500 ? body : body.substring(0, 500) + "…";
  }
}
