package dev.crawler.common.ops;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * One condition a service needs to do its work (connected to Kafka, Streams running, the schema
 * registry answering), as {@code /health/ready} reports it.
 *
 * @param name what is checked, as the report names it ({@code kafka}, {@code streams}, {@code
 *     schema-registry})
 * @param problem what is wrong, or empty when the condition holds; called on the probe's thread, so
 *     it must answer within a probe's timeout
 */
public record HealthCheck(String name, Supplier<Optional<String>> problem) {

  /**
   * A check that holds when {@code check} returns, and fails with the message of what it throws.
   */
  public static HealthCheck of(String name, Runnable check) {
    return new HealthCheck(
        name,
        () -> {
          try {
            check.run();
            return Optional.empty();
          } catch (RuntimeException e) {
            return Optional.of(
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
          }
        });
  }
}
