package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The value of a robots.txt {@code Content-Signal} line (Cloudflare's Content Signals Policy,
 * contentsignals.org): comma-separated {@code key=value} signals, {@code search}, {@code ai-input}
 * and {@code ai-train} with the values {@code yes} and {@code no}, and others such as {@code use}
 * kept as terms.
 *
 * <p>The policy defines no grammar beyond its examples, so the value is read leniently: keys and
 * values without regard to case and surrounding spaces. A part without '=' is reported and skipped;
 * a value that has no well-formed part states nothing. Stateless.
 */
final class ContentSignal {

  /** The longest value read, in characters; a longer one is reported and ignored. */
  static final int MAX_VALUE_CHARS = 4096;

  private ContentSignal() {}

  /**
   * The statement {@code value} makes, with the problems of its parts that could not be read.
   *
   * @param value the signals, without the path that may precede them
   * @param raw the text the statement keeps as read (the whole line value, path included)
   * @param scope what the line is scoped to ({@link UsageStatement#scope()})
   */
  static UsageFindings read(String value, String raw, String scope) {
    UsageSource source = UsageSource.ROBOTS_TXT_CONTENT_SIGNAL;
    if (value.length() > MAX_VALUE_CHARS) {
      return new UsageFindings(
          List.of(),
          List.of(
              UsageProblem.about(
                  source, "signal longer than " + MAX_VALUE_CHARS + " characters ignored", value)));
    }
    Map<String, String> signals = new LinkedHashMap<>();
    List<UsageProblem> problems = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      String signal = part.strip();
      if (signal.isEmpty()) {
        continue;
      }
      int equals = signal.indexOf('=');
      String key = equals < 0 ? "" : signal.substring(0, equals).strip();
      if (key.isEmpty() || !key.chars().allMatch(ContentSignal::isKeyChar)) {
        problems.add(UsageProblem.about(source, "not a key=value signal, skipped", signal));
        continue;
      }
      signals.put(
          key.toLowerCase(Locale.ROOT),
          signal.substring(equals + 1).strip().toLowerCase(Locale.ROOT));
    }
    if (signals.isEmpty()) {
      if (problems.isEmpty()) {
        problems.add(UsageProblem.about(source, "no signal, ignored", value));
      }
      return new UsageFindings(List.of(), problems);
    }
    UsageStatement statement =
        UsageStatement.of(source, raw, scope, UsageVocabulary.ofContentSignal(signals), signals);
    return new UsageFindings(List.of(statement), problems);
  }

  private static boolean isKeyChar(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.';
  }
}
