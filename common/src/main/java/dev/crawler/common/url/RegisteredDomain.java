package dev.crawler.common.url;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.Locale;

/**
 * The registered domain of a host: its public suffix plus one label (crawler-commons' {@link
 * EffectiveTldFinder}).
 *
 * <p>The public suffix list is read once per JVM, when this class is first used: a few hundred
 * milliseconds of CPU. crawler-commons creates its instance without a lock, so two services
 * starting in one JVM each read the list when they reached it at once; the class's initialization
 * reads it here, once, while any other thread needing it waits.
 */
public final class RegisteredDomain {

  static {
    EffectiveTldFinder.getInstance();
  }

  private RegisteredDomain() {}

  /**
   * Reads the public suffix list now, if it was not read yet: for a process to call on a thread of
   * its own while it starts, so that the first service to need it does not wait for it.
   */
  public static void load() {
    // the class's initialization has read it
  }

  /**
   * The host's registered domain, lower-case; the host itself when it has none (an IP address,
   * localhost).
   */
  public static String of(String host) {
    String lower = host.toLowerCase(Locale.ROOT);
    String domain = EffectiveTldFinder.getAssignedDomain(lower, true, false);
    return domain == null ? lower : domain;
  }
}
