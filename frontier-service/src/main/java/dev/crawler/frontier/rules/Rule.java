package dev.crawler.frontier.rules;

import java.util.List;
import java.util.Map;

/**
 * One of the ordered, nested rules of the crawl configuration.
 *
 * <p>Every rule has a {@code path} that names it in explanations and in the crawl log: its name
 * when it has one, else its position, e.g. {@code rules[2].rules[0]}.
 */
public sealed interface Rule {

  String path();

  /**
   * "Conditions apply for" ({@code except == false}): when the condition matches, the options are
   * assigned and the children processed; when not, none of the children is evaluated. "Conditions
   * apply except for" ({@code except == true}) is the reverse.
   */
  record Apply(
      String path,
      Condition condition,
      boolean except,
      Map<CrawlOption<?>, Object> options,
      List<Rule> children)
      implements Rule {

    /** Whether the rule's options and children apply to the URL. */
    public boolean appliesTo(CandidateUrl url) {
      return condition.matches(url) != except;
    }
  }

  /**
   * "URLs may not have" ({@code mustHave == false}: a match filters the URL) or "URLs must have"
   * ({@code mustHave == true}: a non-match filters it). Filtering is absolute.
   *
   * @param log whether a URL this rule filtered is logged
   * @param detail the crawl log's detail for it, e.g. {@code RULE} or {@code LOCAL_POLICY}
   */
  record Filter(String path, Condition condition, boolean mustHave, boolean log, String detail)
      implements Rule {

    /** Whether this rule filters the URL. */
    public boolean filters(CandidateUrl url) {
      return condition.matches(url) != mustHave;
    }
  }
}
