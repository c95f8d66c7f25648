package dev.crawler.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * The schemas a {@link LocalSchemaRegistry} holds, numbered as a Confluent Schema Registry numbers
 * them: an id per distinct schema, shared by every subject that registers it, and per subject the
 * versions 1, 2, … in the order they were registered. A new version must be able to read what the
 * subject's latest version wrote (Confluent's default compatibility, {@code BACKWARD}, checked by
 * Avro's {@link SchemaCompatibility}).
 *
 * <p>Every registration is one line of JSON appended to a file and forced to disk before its id is
 * answered, so a record written with that id can always be read after a crash or a restart. A line
 * cut short by a crash while it was written (never answered) is dropped when the file is read
 * again; any other line that cannot be read stops the start, naming the file and the line.
 *
 * <p>Thread-safe.
 */
final class RegisteredSchemas implements AutoCloseable {

  /** One version of a subject. */
  record Registration(int id, String subject, int version, Schema schema) {}

  /** The schema text is not an Avro schema, or not of a type this registry holds. */
  static final class InvalidSchemaException extends RuntimeException {
    InvalidSchemaException(String message) {
      super(message);
    }
  }

  /** The schema cannot read what the subject's latest version wrote. */
  static final class IncompatibleSchemaException extends RuntimeException {
    IncompatibleSchemaException(String message) {
      super(message);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final FileChannel log;
  private final List<Schema> schemasById = new ArrayList<>(); // id i at index i - 1
  private final Map<Schema, Integer> idsBySchema = new HashMap<>();
  private final Map<String, List<Registration>> versionsBySubject = new TreeMap<>();

  private RegisteredSchemas(Path file, FileChannel log) {
    this.file = file;
    this.log = log;
  }

  /**
   * Reads the registrations kept in {@code file} (created when missing) and appends new ones to it.
   *
   * @throws IllegalStateException when a line other than a last one cut short cannot be read
   */
  static RegisteredSchemas open(Path file) {
    FileChannel log;
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      log =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the schema registry's file " + file, e);
    }
    try {
      // one registry per file: another process's registry on the same data directory could
      // take a line it is writing for one cut short, and number schemas as it does
      FileLock lock;
      try {
        lock = log.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this JVM already
      }
      if (lock == null) {
        throw new IllegalStateException(
            "the schema registry's file "
                + file
                + " is in use by another process (a crawl running on the same data directory?)");
      }
      RegisteredSchemas schemas = new RegisteredSchemas(file, log);
      schemas.load();
      return schemas;
    } catch (IOException | RuntimeException e) {
      try {
        log.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot read the schema registry's file " + file, io);
      }
      throw (RuntimeException) e;
    }
  }

  private void load() throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int start = 0;
    int lineNumber = 0;
    while (start < bytes.length) {
      int end = start;
      while (end < bytes.length && bytes[end] != '\n') {
        end++;
      }
      lineNumber++;
      String line = new String(bytes, start, end - start, StandardCharsets.UTF_8);
      if (end == bytes.length) {
        // no newline: the last line was cut short as it was written, and never answered
        log.truncate(start);
        break;
      }
      try {
        JsonNode entry = JSON.readTree(line);
        add(
            new Registration(
                entry.path("id").asInt(),
                entry.path("subject").asText(),
                entry.path("version").asInt(),
                new Schema.Parser().parse(entry.path("schema").asText())));
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(
            "the schema registry's file " + file + " cannot be read at line " + lineNumber, e);
      }
      start = end + 1;
    }
    log.position(log.size());
  }

  private void add(Registration registration) {
    int id = registration.id();
    Integer known = idsBySchema.get(registration.schema());
    if (known == null && id == schemasById.size() + 1) {
      schemasById.add(registration.schema());
      idsBySchema.put(registration.schema(), id);
    } else if (known == null || known != id) {
      throw new IllegalStateException(
          "schema id " + id + " is not the schema's (" + known + ") nor the next one");
    }
    versionsBySubject
        .computeIfAbsent(registration.subject(), s -> new ArrayList<>())
        .add(registration);
  }

  /**
   * Registers {@code schemaText} under {@code subject}; a schema the subject has already is
   * answered with its registration as it was.
   *
   * @throws InvalidSchemaException when the text is not an Avro schema
   * @throws IncompatibleSchemaException when it cannot read the subject's latest version's records
   * @throws UncheckedIOException when the registration cannot be written to disk (it is not made)
   */
  synchronized Registration register(String subject, String schemaText) {
    if (broken) {
      throw new UncheckedIOException(
          new IOException(
              "the schema registry's file "
                  + file
                  + " may end in a registration half written; restart to read it again"));
    }
    Schema schema = parse(schemaText);
    List<Registration> versions = versionsBySubject.getOrDefault(subject, List.of());
    for (Registration known : versions) {
      if (known.schema().equals(schema)) {
        return known;
      }
    }
    if (!versions.isEmpty()) {
      Schema latest = versions.get(versions.size() - 1).schema();
      var compatibility = SchemaCompatibility.checkReaderWriterCompatibility(schema, latest);
      if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        throw new IncompatibleSchemaException(
            "the schema cannot read records of "
                + subject
                + " version "
                + versions.size()
                + ": "
                + compatibility.getDescription());
      }
    }
    Integer known = idsBySchema.get(schema);
    Registration registration =
        new Registration(
            known != null ? known : schemasById.size() + 1, subject, versions.size() + 1, schema);
    write(registration);
    add(registration);
    return registration;
  }

  private static Schema parse(String schemaText) {
    try {
      return new Schema.Parser().parse(schemaText);
    } catch (AvroRuntimeException e) {
      // SchemaParseException, or AvroTypeException for a default of the wrong type
      throw new InvalidSchemaException("not an Avro schema: " + e.getMessage());
    }
  }

  private void write(Registration registration) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("id", registration.id());
    entry.put("subject", registration.subject());
    entry.put("version", registration.version());
    entry.put("schema", registration.schema().toString());
    try {
      ByteBuffer line =
          ByteBuffer.wrap((JSON.writeValueAsString(entry) + "\n").getBytes(StandardCharsets.UTF_8));
      long before = log.position();
      try {
        while (line.hasRemaining()) {
          log.write(line);
        }
        log.force(false);
      } catch (IOException e) {
        try {
          log.truncate(before); // a registration half written is not made
          log.position(before);
        } catch (IOException undone) {
          // the file may end in a part of a line: a line written after it would be glued to it
          broken = true;
          e.addSuppressed(undone);
        }
        throw e;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to the schema registry's file " + file, e);
    }
  }

  /** Whether a failed write could not be undone: no registration is taken until a restart. */
  private boolean broken;

  /** The schema registered with this id. */
  synchronized Optional<Schema> schemaById(int id) {
    return id >= 1 && id <= schemasById.size()
        ? Optional.of(schemasById.get(id - 1))
        : Optional.empty();
  }

  /** The subjects, in alphabetical order. */
  synchronized List<String> subjects() {
    return List.copyOf(versionsBySubject.keySet());
  }

  /** The subject's versions, oldest first; empty when it has none. */
  synchronized List<Registration> versions(String subject) {
    return List.copyOf(versionsBySubject.getOrDefault(subject, List.of()));
  }

  /** The subject's registration of this schema text, if it has one. */
  synchronized Optional<Registration> find(String subject, String schemaText) {
    Schema schema = parse(schemaText);
    return versionsBySubject.getOrDefault(subject, List.of()).stream()
        .filter(registration -> registration.schema().equals(schema))
        .findFirst();
  }

  @Override
  public synchronized void close() {
    try {
      log.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
