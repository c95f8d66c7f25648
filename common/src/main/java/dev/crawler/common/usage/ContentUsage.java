package dev.crawler.common.usage;

import dev.crawler.common.usage.StructuredDictionary.Kind;
import dev.crawler.common.usage.StructuredDictionary.MalformedFieldException;
import dev.crawler.common.usage.StructuredDictionary.Member;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An aipref statement of preference, the value of a {@code Content-Usage} header or robots.txt rule
 * (draft-ietf-aipref-vocab-07, "Exemplary Serialization Format"; draft-ietf-aipref-attach-05): a
 * Structured Field Dictionary (RFC 9651) whose keys are usage category labels and whose values are
 * the Tokens {@code y} and {@code n}.
 *
 * <p>A value that does not parse as a Dictionary states nothing (the vocabulary: "If the parsing of
 * the Dictionary fails, preferences are unknown") and is reported as a problem. Keys the vocabulary
 * does not define are kept as terms of the statement. Stateless.
 */
final class ContentUsage {

  /** The longest statement read, in characters; a longer one is reported and ignored. */
  static final int MAX_VALUE_CHARS = 4096;

  private ContentUsage() {}

  /**
   * The statement {@code value} makes, or the problem that it is not one.
   *
   * @param value the statement's text (a header's value, repeated lines joined with ", "), which is
   *     also its raw text
   * @param source where it was read
   * @param scope what it is scoped to ({@link UsageStatement#scope()})
   */
  static UsageFindings read(String value, UsageSource source, String scope) {
    return read(value, value, source, scope);
  }

  /**
   * The statement {@code value} makes, or the problem that it is not one.
   *
   * @param value the statement's text (the preference part of a robots.txt rule)
   * @param raw the text the statement keeps as read (the whole rule value, path included)
   * @param source where it was read
   * @param scope what it is scoped to ({@link UsageStatement#scope()})
   */
  static UsageFindings read(String value, String raw, UsageSource source, String scope) {
    if (value.length() > MAX_VALUE_CHARS) {
      return problem(
          UsageProblem.about(
              source, "statement longer than " + MAX_VALUE_CHARS + " characters ignored", value));
    }
    Map<String, Member> members;
    try {
      members = StructuredDictionary.parse(value);
    } catch (MalformedFieldException e) {
      return problem(
          UsageProblem.about(
              source,
              "not a structured field dictionary (" + e.getMessage() + "), ignored",
              value));
    }
    Map<String, String> terms = new LinkedHashMap<>();
    Map<String, String> tokens = new LinkedHashMap<>();
    members.forEach(
        (key, member) -> {
          terms.put(key, member.text());
          if (member.kind() == Kind.TOKEN) {
            tokens.put(key, member.token());
          }
        });
    UsageStatement statement =
        UsageStatement.of(source, raw, scope, UsageVocabulary.ofAipref(tokens), terms);
    return new UsageFindings(List.of(statement), List.of());
  }

  private static UsageFindings problem(UsageProblem problem) {
    return new UsageFindings(List.of(), List.of(problem));
  }
}
