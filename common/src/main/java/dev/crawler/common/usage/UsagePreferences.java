package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a document's site states about the use of the document, per category, with every statement
 * it was read from and where each came from.
 *
 * <p>Precedence, in {@link #combine}:
 *
 * <ol>
 *   <li>Within TDMRep, the protocol's own processing order: a value from the HTML meta tags
 *       supersedes the header's, which supersedes tdmrep.json's; a technique that states no
 *       reservation leaves the earlier value in force (TDMRep, "Processing priority"). Superseded
 *       statements are kept, marked {@link UsageStatement#superseded()}, and count for nothing.
 *   <li>Across everything else (aipref in robots.txt and in the header, Content-Signal, TDMRep's
 *       value in force, noai and noimageai), the most restrictive statement wins, as the aipref
 *       vocabulary combines statements (draft-ietf-aipref-vocab-07, "Combining Preferences"): a
 *       category is {@link Preference#STATED_DISALLOWED} if any statement disallows it, else {@link
 *       Preference#STATED_ALLOWED} if any allows it, else {@link Preference#NOT_STATED}. No
 *       specification orders these sources against one another; the most restrictive rule is the
 *       one every one of them is compatible with.
 * </ol>
 *
 * @param summary every category's preference (every {@link UseCategory} is a key)
 * @param statements the statements read, in the order given, at most {@link #MAX_STATEMENTS}
 * @param tdmPolicy the TDMRep policy URL in force, unless the reservation in force is 0 (TDMRep:
 *     agents "SHOULD NOT process tdm-policy" then)
 * @param problems what was ignored and why, at most {@link #MAX_PROBLEMS}
 */
public record UsagePreferences(
    Map<UseCategory, Preference> summary,
    List<UsageStatement> statements,
    Optional<String> tdmPolicy,
    List<UsageProblem> problems) {

  /** The most statements kept for one document; the summary counts them all. */
  public static final int MAX_STATEMENTS = 64;

  /** The most problems kept for one document. */
  public static final int MAX_PROBLEMS = 16;

  /** Nothing stated: every category {@link Preference#NOT_STATED}, no statement. */
  public static final UsagePreferences NONE = combine(List.of());

  /** Copies its arguments; a category missing from {@code summary} is not stated. */
  public UsagePreferences {
    EnumMap<UseCategory, Preference> all = new EnumMap<>(UseCategory.class);
    for (UseCategory category : UseCategory.values()) {
      all.put(category, summary.getOrDefault(category, Preference.NOT_STATED));
    }
    summary = Collections.unmodifiableMap(all);
    statements = List.copyOf(statements);
    problems = List.copyOf(problems);
  }

  /** The preferences of one document, from what each source found for it (in any order). */
  public static UsagePreferences combine(UsageFindings... findings) {
    return combine(List.of(findings));
  }

  /** The preferences of one document, from what each source found for it (in any order). */
  public static UsagePreferences combine(List<UsageFindings> findings) {
    List<UsageStatement> read = new ArrayList<>();
    List<UsageProblem> problems = new ArrayList<>();
    for (UsageFindings found : findings) {
      read.addAll(found.statements());
      problems.addAll(found.problems());
    }
    // TDMRep: the latest technique stating a reservation is in force
    int rankInForce = -1;
    for (UsageStatement statement : read) {
      if (statement.source().tdmRepRank() >= 0 && !statement.effects().isEmpty()) {
        rankInForce = Math.max(rankInForce, statement.source().tdmRepRank());
      }
    }
    List<UsageStatement> statements = new ArrayList<>(read.size());
    Map<UseCategory, Preference> summary = new EnumMap<>(UseCategory.class);
    Optional<String> policy = Optional.empty();
    int policyRank = -1;
    Preference tdmRepInForce = Preference.NOT_STATED;
    for (UsageStatement statement : read) {
      int rank = statement.source().tdmRepRank();
      boolean superseded = rank >= 0 && !statement.effects().isEmpty() && rank < rankInForce;
      statements.add(superseded ? statement.asSuperseded() : statement);
      if (superseded) {
        continue;
      }
      statement
          .effects()
          .forEach((category, preference) -> summary.merge(category, preference, Preference::and));
      if (rank >= 0) {
        tdmRepInForce = tdmRepInForce.and(statement.preferenceFor(UseCategory.TDM));
        String url = statement.terms().get(TdmRepValues.POLICY);
        if (url != null && rank > policyRank) {
          policy = Optional.of(url);
          policyRank = rank;
        }
      }
    }
    if (tdmRepInForce == Preference.STATED_ALLOWED) {
      policy = Optional.empty();
    }
    if (statements.size() > MAX_STATEMENTS) {
      problems.add(
          new UsageProblem(
              statements.get(MAX_STATEMENTS).source(),
              (statements.size() - MAX_STATEMENTS)
                  + " statements past the first "
                  + MAX_STATEMENTS
                  + " not kept (the summary counts them)"));
      statements = statements.subList(0, MAX_STATEMENTS);
    }
    if (problems.size() > MAX_PROBLEMS) {
      problems = problems.subList(0, MAX_PROBLEMS);
    }
    return new UsagePreferences(summary, statements, policy, problems);
  }

  /** What is stated about {@code category}, all statements combined. */
  public Preference preferenceFor(UseCategory category) {
    return summary.get(category);
  }

  /** The first statement in force that disallows {@code category}, if one does. */
  public Optional<UsageStatement> disallowingStatement(UseCategory category) {
    return statements.stream()
        .filter(statement -> !statement.superseded())
        .filter(statement -> statement.preferenceFor(category) == Preference.STATED_DISALLOWED)
        .findFirst();
  }
}
