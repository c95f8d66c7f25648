package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.List;

/**
 * What one parser found for one document: the statements that apply, and the problems of the
 * statements that would have applied but could not be read.
 *
 * @param statements the statements, in the order they were read
 * @param problems what was ignored and why
 */
public record UsageFindings(List<UsageStatement> statements, List<UsageProblem> problems) {

  /** Nothing found. */
  public static final UsageFindings NONE = new UsageFindings(List.of(), List.of());

  /** Copies its arguments. */
  public UsageFindings {
    statements = List.copyOf(statements);
    problems = List.copyOf(problems);
  }

  /** Whether nothing was found: no statement and no problem. */
  public boolean isEmpty() {
    return statements.isEmpty() && problems.isEmpty();
  }

  /** These findings followed by {@code other}'s. */
  public UsageFindings and(UsageFindings other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    List<UsageStatement> allStatements = new ArrayList<>(statements);
    allStatements.addAll(other.statements);
    List<UsageProblem> allProblems = new ArrayList<>(problems);
    allProblems.addAll(other.problems);
    return new UsageFindings(allStatements, allProblems);
  }
}
