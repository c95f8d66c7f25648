package dev.crawler.common.usage;

import dev.crawler.events.UsagePreference;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Usage preferences as the events carry them ({@code dev.crawler.events.UsagePreferences}) and
 * back: the fetcher sends what robots.txt and tdmrep.json state about a URL on its fetch result,
 * the parser reads those statements back and combines them with the page's own, and the document
 * carries the result. Categories are named by their {@link UseCategory#label() labels}. Pure.
 */
public final class UsageRecords {

  private UsageRecords() {}

  /** The preferences as an event's field. */
  public static dev.crawler.events.UsagePreferences toRecord(UsagePreferences preferences) {
    Map<String, UsagePreference> summary = new LinkedHashMap<>();
    preferences
        .summary()
        .forEach(
            (category, preference) -> {
              if (preference != Preference.NOT_STATED) {
                summary.put(category.label(), toRecord(preference));
              }
            });
    List<dev.crawler.events.UsageStatement> statements = new ArrayList<>();
    for (UsageStatement statement : preferences.statements()) {
      Map<String, UsagePreference> effects = new LinkedHashMap<>();
      statement
          .effects()
          .forEach((category, preference) -> effects.put(category.label(), toRecord(preference)));
      statements.add(
          dev.crawler.events.UsageStatement.newBuilder()
              .setSource(dev.crawler.events.UsageSource.valueOf(statement.source().name()))
              .setRaw(statement.raw())
              .setScope(statement.scope())
              .setEffects(effects)
              .setTerms(new LinkedHashMap<>(statement.terms()))
              .setSuperseded(statement.superseded())
              .build());
    }
    List<String> problems = new ArrayList<>();
    for (UsageProblem problem : preferences.problems()) {
      problems.add(problem.source().name() + ": " + problem.message());
    }
    return dev.crawler.events.UsagePreferences.newBuilder()
        .setSummary(summary)
        .setStatements(statements)
        .setTdmPolicy(preferences.tdmPolicy().orElse(null))
        .setProblems(problems)
        .build();
  }

  /**
   * The statements an event carries, to be combined with others ({@link UsagePreferences#combine});
   * a source or category this version does not know is left out.
   */
  public static UsageFindings findingsOf(dev.crawler.events.UsagePreferences record) {
    List<UsageStatement> statements = new ArrayList<>();
    for (dev.crawler.events.UsageStatement statement : record.getStatements()) {
      UsageSource source;
      try {
        source = UsageSource.valueOf(statement.getSource().name());
      } catch (IllegalArgumentException e) {
        continue;
      }
      Map<UseCategory, Preference> effects = new EnumMap<>(UseCategory.class);
      statement
          .getEffects()
          .forEach(
              (label, preference) -> {
                UseCategory category = categoryOf(label);
                if (category != null) {
                  effects.put(category, fromRecord(preference));
                }
              });
      statements.add(
          new UsageStatement(
              source,
              statement.getRaw(),
              statement.getScope(),
              effects,
              statement.getTerms(),
              false));
    }
    return new UsageFindings(statements, List.of());
  }

  /** The category a label names, or null when none does. */
  public static @org.jspecify.annotations.Nullable UseCategory categoryOf(String label) {
    try {
      return UseCategory.valueOf(label.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static UsagePreference toRecord(Preference preference) {
    return switch (preference) {
      case STATED_ALLOWED -> UsagePreference.STATED_ALLOWED;
      case STATED_DISALLOWED -> UsagePreference.STATED_DISALLOWED;
      case NOT_STATED -> UsagePreference.NOT_STATED;
    };
  }

  private static Preference fromRecord(UsagePreference preference) {
    return switch (preference) {
      case STATED_ALLOWED -> Preference.STATED_ALLOWED;
      case STATED_DISALLOWED -> Preference.STATED_DISALLOWED;
      case NOT_STATED -> Preference.NOT_STATED;
    };
  }
}
