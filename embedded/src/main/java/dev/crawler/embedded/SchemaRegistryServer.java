package dev.crawler.embedded;

/** A schema registry the embedded mode runs on 127.0.0.1, serving the Confluent REST API. */
public interface SchemaRegistryServer extends AutoCloseable {

  /** The API root a registry client is given. */
  String url();

  /** Stops the registry; idempotent. */
  @Override
  void close();
}
