package dev.crawler.committer.domain;

import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UsagePreference;
import dev.crawler.events.UsagePreferences;
import dev.crawler.events.UsageStatement;
import dev.crawler.schemas.options.RequestOptions;
import java.util.List;
import java.util.Optional;

/**
 * Whether a document may be published under the options {@code require-usage} (the uses its site
 * must allow) and {@code require-usage-stated} (whether a use the site states nothing about counts
 * as refused): a crawl feeding AI training publishes only what allows it. A use is refused when the
 * document's usage preferences disallow it (any statement in force), or, with {@code
 * require-usage-stated}, when they do not state it allowed. Pure.
 */
public final class UsageGate {

  private UsageGate() {}

  /** Why the document may not be published, if it may not: the use and what refused it. */
  public static Optional<String> refusal(ParsedDocument parsed) {
    List<String> required = RequestOptions.REQUIRE_USAGE.readFrom(parsed.getOptions());
    if (required.isEmpty()) {
      return Optional.empty();
    }
    boolean statedOnly = RequestOptions.REQUIRE_USAGE_STATED.readFrom(parsed.getOptions());
    UsagePreferences usage = parsed.getUsage();
    for (String use : required) {
      UsagePreference preference =
          usage == null
              ? UsagePreference.NOT_STATED
              : usage.getSummary().getOrDefault(use, UsagePreference.NOT_STATED);
      if (preference == UsagePreference.STATED_DISALLOWED) {
        return Optional.of(use + " refused by " + refusingStatement(usage, use));
      }
      if (preference == UsagePreference.NOT_STATED && statedOnly) {
        return Optional.of(use + " not stated allowed (require-usage-stated)");
      }
    }
    return Optional.empty();
  }

  private static String refusingStatement(UsagePreferences usage, String use) {
    for (UsageStatement statement : usage.getStatements()) {
      if (!statement.getSuperseded()
          && statement.getEffects().get(use) == UsagePreference.STATED_DISALLOWED) {
        return statement.getSource().name() + " " + statement.getRaw();
      }
    }
    return "the site's usage preferences";
  }
}
