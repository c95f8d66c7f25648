package dev.crawler.common.url;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.Locale;

/**
 * The registered domain of a host: its public suffix plus one label (crawler-commons' {@link
 * EffectiveTldFinder}).
 */
public final class RegisteredDomain {

  private RegisteredDomain() {}

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
