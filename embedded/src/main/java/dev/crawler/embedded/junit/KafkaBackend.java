package dev.crawler.embedded.junit;

/**
 * Where the test cluster's broker runs: in this JVM, or in a container when a Docker engine is
 * there.
 */
interface KafkaBackend extends AutoCloseable {

  String bootstrapServers();

  /** A short description for the test log. */
  String describe();

  @Override
  void close();
}
