package dev.crawler.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded mode's schema registry, in this JVM: the part of the Confluent Schema Registry REST
 * API that producers and consumers use, served on a port of 127.0.0.1, with its schemas kept in a
 * file of the data directory ({@link RegisteredSchemas}). Any client of that API works with it: the
 * crawler's own, and Confluent's {@code KafkaAvroDeserializer} of a downstream consumer.
 *
 * <p>Served, with Confluent's answers and error codes:
 *
 * <ul>
 *   <li>{@code POST /subjects/{subject}/versions} registers a schema, answers its id;
 *   <li>{@code POST /subjects/{subject}} finds a schema's registration under the subject;
 *   <li>{@code GET /schemas/ids/{id}}, {@code GET /subjects}, {@code GET
 *       /subjects/{subject}/versions}, {@code GET /subjects/{subject}/versions/{version|latest}},
 *       {@code GET /config} (compatibility {@code BACKWARD}).
 * </ul>
 *
 * <p>It starts in milliseconds, where a registry of its own JVM took seconds of two cores' CPU at
 * every crawl's start. Bounded: a request body of at most {@value #MAX_BODY_BYTES} bytes (a larger
 * one is answered 413, not read past that); it listens on 127.0.0.1 only, without credentials, like
 * the broker beside it.
 */
public final class LocalSchemaRegistry implements SchemaRegistryServer {

  private static final Logger LOG = LoggerFactory.getLogger(LocalSchemaRegistry.class);

  /** The largest request body read: a schema, in JSON. */
  static final int MAX_BODY_BYTES = 1 << 20;

  /** The file, under the work directory, that keeps the registrations. */
  static final String FILE = "schema-registry/schemas.jsonl";

  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final RegisteredSchemas schemas;
  private final String url;
  private boolean closed;

  private LocalSchemaRegistry(HttpServer server, RegisteredSchemas schemas) {
    this.server = server;
    this.schemas = schemas;
    this.url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * Starts the registry on this port of 127.0.0.1 (0: any free one), with the schemas kept under
   * {@code workDir}.
   *
   * @throws UncheckedIOException when the port is taken or the file cannot be opened
   * @throws IllegalStateException when the file cannot be read
   */
  public static LocalSchemaRegistry start(Path workDir, int port) {
    long started = System.nanoTime();
    RegisteredSchemas schemas = RegisteredSchemas.open(workDir.resolve(FILE));
    HttpServer server;
    try {
      server =
          HttpServer.create(
              new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port), 16);
    } catch (IOException e) {
      schemas.close();
      throw new UncheckedIOException("cannot serve the schema registry on port " + port, e);
    }
    LocalSchemaRegistry registry = new LocalSchemaRegistry(server, schemas);
    server.createContext("/", registry::answer);
    server.start();
    LOG.info(
        "Schema registry ready at {} in {} ms ({} subjects)",
        registry.url,
        (System.nanoTime() - started) / 1_000_000,
        schemas.subjects().size());
    return registry;
  }

  /** Whether {@code workDir} holds this registry's schemas. */
  static boolean holdsSchemas(Path workDir) {
    return Files.isRegularFile(workDir.resolve(FILE));
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.stop(0);
    schemas.close();
    LOG.info("Schema registry at {} stopped", url);
  }

  /** An answer: a status and a JSON body. */
  private record Answer(int status, JsonNode body) {

    static Answer subjectNotFound(String subject) {
      return error(404, 40401, "Subject '" + subject + "' not found.");
    }

    static Answer error(int status, int code, String message) {
      return new Answer(
          status, JSON.createObjectNode().put("error_code", code).put("message", message));
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    Answer answer;
    try {
      answer = route(exchange);
    } catch (RegisteredSchemas.InvalidSchemaException e) {
      answer = Answer.error(422, 42201, "Invalid schema: " + e.getMessage());
    } catch (RegisteredSchemas.IncompatibleSchemaException e) {
      answer = Answer.error(409, 409, "Schema being registered is incompatible: " + e.getMessage());
    } catch (BodyTooLargeException e) {
      answer = Answer.error(413, 413, "a request body is at most " + MAX_BODY_BYTES + " bytes");
    } catch (IOException | RuntimeException e) {
      LOG.warn("schema registry {} {} failed: {}", exchange.getRequestMethod(), path(exchange), e);
      answer = Answer.error(500, 50001, "Error in the backend data store: " + e.getMessage());
    }
    byte[] body = JSON.writeValueAsBytes(answer.body());
    exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
    exchange.sendResponseHeaders(answer.status(), body.length);
    try (var out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private Answer route(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    List<String> path = segments(path(exchange));
    boolean get = method.equals("GET");
    boolean post = method.equals("POST");
    int size = path.size();
    if (size == 0 && get) {
      return new Answer(200, JSON.createObjectNode());
    }
    if (size == 1 && get && path.get(0).equals("config")) {
      return new Answer(200, JSON.createObjectNode().put("compatibilityLevel", "BACKWARD"));
    }
    if (size == 3 && get && path.get(0).equals("schemas") && path.get(1).equals("ids")) {
      return schemaById(path.get(2));
    }
    if (size == 1 && get && path.get(0).equals("subjects")) {
      ArrayNode subjects = JSON.createArrayNode();
      schemas.subjects().forEach(subjects::add);
      return new Answer(200, subjects);
    }
    if (size >= 2 && path.get(0).equals("subjects")) {
      String subject = path.get(1);
      if (size == 2 && post) {
        String schemaText = schemaText(exchange);
        if (schemas.versions(subject).isEmpty()) {
          return Answer.subjectNotFound(subject);
        }
        return schemas
            .find(subject, schemaText)
            .map(registration -> new Answer(200, describe(registration)))
            .orElseGet(() -> Answer.error(404, 40403, "Schema not found"));
      }
      if (size == 3 && path.get(2).equals("versions")) {
        if (post) {
          RegisteredSchemas.Registration registration =
              schemas.register(subject, schemaText(exchange));
          return new Answer(200, JSON.createObjectNode().put("id", registration.id()));
        }
        if (get) {
          List<RegisteredSchemas.Registration> versions = schemas.versions(subject);
          if (versions.isEmpty()) {
            return Answer.subjectNotFound(subject);
          }
          ArrayNode numbers = JSON.createArrayNode();
          versions.forEach(version -> numbers.add(version.version()));
          return new Answer(200, numbers);
        }
      }
      if (size == 4 && get && path.get(2).equals("versions")) {
        return version(subject, path.get(3));
      }
    }
    return isServed(path)
        ? Answer.error(405, 405, "HTTP 405 Method Not Allowed")
        : Answer.error(404, 404, "HTTP 404 Not Found");
  }

  /** Whether a path is one this registry answers, with some method. */
  private static boolean isServed(List<String> path) {
    int size = path.size();
    return size == 0
        || (size == 1 && (path.get(0).equals("config") || path.get(0).equals("subjects")))
        || (size == 3 && path.get(0).equals("schemas") && path.get(1).equals("ids"))
        || (size == 2 && path.get(0).equals("subjects"))
        || (size >= 3
            && size <= 4
            && path.get(0).equals("subjects")
            && path.get(2).equals("versions"));
  }

  private Answer schemaById(String idText) {
    Optional<org.apache.avro.Schema> schema;
    try {
      schema = schemas.schemaById(Integer.parseInt(idText));
    } catch (NumberFormatException e) {
      schema = Optional.empty();
    }
    return schema
        .map(s -> new Answer(200, JSON.createObjectNode().put("schema", s.toString())))
        .orElseGet(() -> Answer.error(404, 40403, "Schema " + idText + " not found"));
  }

  private Answer version(String subject, String versionText) {
    List<RegisteredSchemas.Registration> versions = schemas.versions(subject);
    if (versions.isEmpty()) {
      return Answer.subjectNotFound(subject);
    }
    int version;
    try {
      // "latest", or -1, Confluent's other name for it
      version = versionText.equals("latest") ? -1 : Integer.parseInt(versionText);
    } catch (NumberFormatException e) {
      version = 0;
    }
    if (version == -1) {
      version = versions.size();
    } else if (version < 1) {
      return Answer.error(422, 42202, "The specified version '" + versionText + "' is not valid");
    }
    if (version > versions.size()) {
      return Answer.error(404, 40402, "Version " + versionText + " not found.");
    }
    return new Answer(200, describe(versions.get(version - 1)));
  }

  private static ObjectNode describe(RegisteredSchemas.Registration registration) {
    return JSON.createObjectNode()
        .put("subject", registration.subject())
        .put("version", registration.version())
        .put("id", registration.id())
        .put("schema", registration.schema().toString());
  }

  /** The schema of a registration request: Avro, unless the request says another type. */
  private static String schemaText(HttpExchange exchange) throws IOException {
    byte[] body = body(exchange);
    JsonNode request;
    try {
      request = JSON.readTree(body);
    } catch (IOException e) {
      throw new RegisteredSchemas.InvalidSchemaException("the request is not JSON");
    }
    String type = request.path("schemaType").asText("AVRO");
    if (!type.equals("AVRO")) {
      throw new RegisteredSchemas.InvalidSchemaException(
          "this registry holds AVRO schemas, not " + type);
    }
    if (request.path("references").size() > 0) {
      throw new RegisteredSchemas.InvalidSchemaException("schema references are not supported");
    }
    JsonNode schema = request.path("schema");
    if (!schema.isTextual()) {
      throw new RegisteredSchemas.InvalidSchemaException("the request has no schema");
    }
    return schema.asText();
  }

  private static final class BodyTooLargeException extends IOException {}

  private static byte[] body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      if (body.length > MAX_BODY_BYTES) {
        throw new BodyTooLargeException();
      }
      return body;
    }
  }

  private static String path(HttpExchange exchange) {
    return exchange.getRequestURI().getRawPath();
  }

  /** The path's segments, each decoded as the clients encode them (form encoding). */
  private static List<String> segments(String rawPath) {
    List<String> segments = new ArrayList<>();
    for (String segment : rawPath.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      try {
        segments.add(URLDecoder.decode(segment, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        segments.add(segment); // a broken escape: a subject no one registered
      }
    }
    return segments;
  }
}
