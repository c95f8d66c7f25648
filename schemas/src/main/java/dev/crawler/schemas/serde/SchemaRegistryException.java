package dev.crawler.schemas.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The schema registry could not be reached or answered with an error; the message says which URL
 * and what status.
 */
public final class SchemaRegistryException extends SerializationException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public SchemaRegistryException(String message, int status) {
    super(message);
    this.status = status;
  }

  public SchemaRegistryException(String message, Throwable cause) {
    super(message, cause);
    this.status = -1;
  }

  /** The HTTP status the registry answered, or -1 when there was no answer. */
  public int status() {
    return status;
  }
}
