package dev.crawler.schemas;

/** How Kafka disposes of a topic's old records ({@code cleanup.policy}). */
public enum CleanupPolicy {
  /** Records are deleted after the topic's retention. */
  DELETE("delete"),
  /** Only the latest record per key is kept; a null value (tombstone) removes the key. */
  COMPACT("compact");

  private final String configValue;

  CleanupPolicy(String configValue) {
    this.configValue = configValue;
  }

  /** The value of the {@code cleanup.policy} topic config. */
  public String configValue() {
    return configValue;
  }
}
