package dev.crawler.frontier.domain;

import dev.crawler.frontier.rules.CrawlConfig;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The crawl configuration a frontier instance decides with: the one it started with, until an
 * operator applies another ({@code crawler config apply}); the instance's tasks take the new one at
 * their next record. Thread-safe.
 */
public final class ActiveConfig {

  private record Applied(CrawlConfig config, String appliedBy, String appliedVersion) {}

  private final AtomicReference<Applied> current;

  public ActiveConfig(CrawlConfig initial) {
    this(initial, initial.version());
  }

  /**
   * @param appliedVersion the version of the file {@code initial} is, before the service's own
   *     settings went on top (what applying that file names)
   */
  public ActiveConfig(CrawlConfig initial, String appliedVersion) {
    this.current =
        new AtomicReference<>(new Applied(initial, "the service's settings", appliedVersion));
  }

  /** The configuration in force. */
  public CrawlConfig current() {
    return current.get().config();
  }

  /** Who applied the configuration in force. */
  public String appliedBy() {
    return current.get().appliedBy();
  }

  /**
   * The version of the configuration as it was applied, before the service's own settings went on
   * top (what {@code crawler config apply} names).
   */
  public String appliedVersion() {
    return current.get().appliedVersion();
  }

  /**
   * Puts another configuration in force, unless it says the same as the one in force.
   *
   * @param appliedVersion its version as applied, before the service's settings went on top
   * @return whether it changed
   */
  public boolean apply(CrawlConfig config, String appliedBy, String appliedVersion) {
    Applied now = current.get();
    if (now.config().version().equals(config.version())) {
      if (!now.appliedVersion().equals(appliedVersion)) {
        // the same rules, now known by the version they were applied under
        current.set(new Applied(now.config(), appliedBy, appliedVersion));
      }
      return false;
    }
    current.set(new Applied(config, appliedBy, appliedVersion));
    return true;
  }
}
