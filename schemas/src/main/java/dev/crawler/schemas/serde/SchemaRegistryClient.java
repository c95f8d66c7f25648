package dev.crawler.schemas.serde;

import org.apache.avro.Schema;

/**
 * The two calls of the Confluent Schema Registry REST API the serde needs. Implementations cache:
 * registering the same schema under the same subject twice costs one request, and a schema fetched
 * by id is never fetched again. Implementations are thread-safe.
 */
public interface SchemaRegistryClient {

  /**
   * Registers {@code schema} under {@code subject} ({@code POST /subjects/{subject}/versions}), or
   * finds it when it is already registered, and returns its id.
   *
   * @throws SchemaRegistryException when the registry cannot be reached or refuses the schema
   */
  int register(String subject, Schema schema);

  /**
   * The schema with this id ({@code GET /schemas/ids/{id}}).
   *
   * @throws SchemaRegistryException when the registry cannot be reached or has no such schema
   */
  Schema schemaById(int id);

  /**
   * Checks that the registry answers ({@code GET /subjects}), for readiness probes; never cached.
   *
   * @throws SchemaRegistryException when it does not answer, or answers an error
   */
  default void checkReachable() {}
}
