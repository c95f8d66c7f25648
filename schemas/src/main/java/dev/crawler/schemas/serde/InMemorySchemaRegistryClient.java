package dev.crawler.schemas.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A registry held in memory: the same ids for the same schemas, no network. For topology tests
 * ({@code TopologyTestDriver} has no broker and no registry) and for tools that only need to decode
 * records they wrote themselves. Ids start at 1 and are shared across subjects, as Confluent's are.
 * Thread-safe.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {

  private final List<Schema> schemas = new ArrayList<>();
  private final Map<String, Map<Schema, Integer>> idsBySubject = new HashMap<>();

  @Override
  public synchronized int register(String subject, Schema schema) {
    Map<Schema, Integer> ids = idsBySubject.computeIfAbsent(subject, s -> new HashMap<>());
    Integer known = ids.get(schema);
    if (known != null) {
      return known;
    }
    int index = schemas.indexOf(schema);
    if (index < 0) {
      schemas.add(schema);
      index = schemas.size() - 1;
    }
    int id = index + 1;
    ids.put(schema, id);
    return id;
  }

  @Override
  public synchronized Schema schemaById(int id) {
    if (id < 1 || id > schemas.size()) {
      throw new SchemaRegistryException("in-memory schema registry has no schema " + id, 404);
    }
    return schemas.get(id - 1);
  }
}
