package dev.crawler.common.usage;

import java.util.Map;
import java.util.StringJoiner;

/** Effects and summaries written as test tables write them: {@code ai-training=n search=y}. */
final class EffectsText {

  private EffectsText() {}

  /** The stated categories, in enum order, {@code y} or {@code n}; empty when nothing is stated. */
  static String of(Map<UseCategory, Preference> preferences) {
    StringJoiner text = new StringJoiner(" ");
    for (UseCategory category : UseCategory.values()) {
      Preference preference = preferences.getOrDefault(category, Preference.NOT_STATED);
      if (preference != Preference.NOT_STATED) {
        text.add(category.label() + "=" + (preference == Preference.STATED_ALLOWED ? "y" : "n"));
      }
    }
    return text.toString();
  }

  /** What the statements of {@code findings} state, one {@link #of} per statement, joined by |. */
  static String of(UsageFindings findings) {
    StringJoiner text = new StringJoiner(" | ");
    for (UsageStatement statement : findings.statements()) {
      text.add(of(statement.effects()));
    }
    return text.toString();
  }
}
