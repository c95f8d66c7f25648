package dev.crawler.common.usage;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One statement of usage preferences as a site made it, and what it says in the crawler's
 * categories.
 *
 * @param source where the statement was read
 * @param raw the statement's text as read (the rule's value, the header's value, the meta tag's
 *     content, the tdmrep.json rule), cut to {@link #MAX_RAW_CHARS}
 * @param scope what the statement is scoped to, empty when nothing: the path pattern of a
 *     robots.txt rule ({@code /} for a rule without a path) or the {@code location} of a
 *     tdmrep.json rule, the user agent a robots.txt group, meta tag or X-Robots-Tag section names
 *     when it is ours rather than generic ({@code agent=NAME}); both joined by a space when both
 *     apply
 * @param effects the categories the statement speaks of, each allowed or disallowed; a category
 *     absent is not stated by this statement (never {@link Preference#NOT_STATED} as a value)
 * @param terms every term of the statement as written, known or not, in order: the key and its
 *     value's text ({@code train-ai} → {@code n}, {@code use} → {@code reference}, {@code
 *     tdm-policy} → its URL, {@code noai} → empty); at most {@link #MAX_TERMS}, each cut to {@link
 *     #MAX_TERM_CHARS}
 * @param superseded the protocol's own precedence set this statement aside: a TDMRep value
 *     superseded by a later TDMRep technique (file, then header, then HTML meta). A superseded
 *     statement is kept for the record and counts in no summary.
 */
public record UsageStatement(
    UsageSource source,
    String raw,
    String scope,
    Map<UseCategory, Preference> effects,
    Map<String, String> terms,
    boolean superseded) {

  /** The longest raw text kept, in characters. */
  public static final int MAX_RAW_CHARS = 512;

  /** The most terms kept from one statement. */
  public static final int MAX_TERMS = 32;

  /** The longest term key or value kept, in characters. */
  public static final int MAX_TERM_CHARS = 256;

  /** Copies and bounds its arguments; a {@link Preference#NOT_STATED} effect is dropped. */
  public UsageStatement {
    Objects.requireNonNull(source, "source");
    raw = BoundedText.cut(raw, MAX_RAW_CHARS);
    scope = BoundedText.cut(scope, MAX_RAW_CHARS);
    EnumMap<UseCategory, Preference> stated = new EnumMap<>(UseCategory.class);
    effects.forEach(
        (category, preference) -> {
          if (preference != Preference.NOT_STATED) {
            stated.put(category, preference);
          }
        });
    effects = Collections.unmodifiableMap(stated);
    Map<String, String> kept = new LinkedHashMap<>();
    for (Map.Entry<String, String> term : terms.entrySet()) {
      if (kept.size() == MAX_TERMS) {
        break;
      }
      kept.put(
          BoundedText.cut(term.getKey(), MAX_TERM_CHARS),
          BoundedText.cut(term.getValue(), MAX_TERM_CHARS));
    }
    terms = Collections.unmodifiableMap(kept);
  }

  /** A statement in force (not superseded). */
  static UsageStatement of(
      UsageSource source,
      String raw,
      String scope,
      Map<UseCategory, Preference> effects,
      Map<String, String> terms) {
    return new UsageStatement(source, raw, scope, effects, terms, false);
  }

  /** What this statement says of {@code category}; {@link Preference#NOT_STATED} when nothing. */
  public Preference preferenceFor(UseCategory category) {
    return effects.getOrDefault(category, Preference.NOT_STATED);
  }

  /** This statement, set aside by its protocol's precedence. */
  UsageStatement asSuperseded() {
    return new UsageStatement(source, raw, scope, effects, terms, true);
  }
}
