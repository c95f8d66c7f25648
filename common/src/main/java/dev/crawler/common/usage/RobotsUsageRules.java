package dev.crawler.common.usage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The usage preferences one origin's robots.txt states for one crawler: its {@code Content-Usage}
 * rules (draft-ietf-aipref-attach-05, section 4) and {@code Content-Signal} lines (Cloudflare's
 * Content Signals Policy), parsed once and answering per path.
 *
 * <p>Groups are those of RFC 9309 section 2.2.1: the groups naming the crawler's product token
 * (case-insensitive) are combined, else the groups of {@code *}; a rule outside any group is
 * ignored and reported. Within the group, each kind of rule is matched separately, as {@code Allow}
 * and {@code Disallow} are: the rules with the longest matching path pattern apply, and several of
 * that length (identical paths) are all kept, their preferences to be combined ({@link
 * UsagePreferences}). A rule without a path applies to every path, as the pattern {@code /} does. A
 * rule whose preference is malformed still applies and states nothing: the longest match is not
 * passed over for a shorter one.
 *
 * <p>Usage preferences apply only to paths that can be crawled: for a path the group's {@code
 * Allow} and {@code Disallow} rules disallow (longest match, allow on a tie, {@code /robots.txt}
 * always allowed), nothing is stated (draft-ietf-aipref-attach, "Content-Usage Rule Semantics").
 * {@code Content-Signal} lines are scoped the same way: to the group, and to a path when their
 * value starts with one.
 *
 * <p>Bounds: the first {@link #MAX_ROBOTS_BYTES} of the file are read (RFC 9309 section 2.5) and at
 * most {@link #MAX_USAGE_RULES} rules of each kind are kept for the crawler; what is beyond is
 * reported. Answering a path parses nothing: rules are indexed by the literal text their path
 * starts with ({@link PathPatternIndex}), and only those the path begins with are matched.
 *
 * <p>Immutable and thread-safe.
 */
public final class RobotsUsageRules {

  /** The most robots.txt bytes read: 500 KiB, the least RFC 9309 section 2.5 lets a parser read. */
  public static final int MAX_ROBOTS_BYTES = 500 * 1024;

  /** The most {@code Content-Usage} rules, and the most {@code Content-Signal} lines, kept. */
  public static final int MAX_USAGE_RULES = 1_000;

  /** No robots.txt, or one that states no usage preference: nothing stated for every path. */
  public static final RobotsUsageRules NONE =
      new RobotsUsageRules(List.of(), List.of(), List.of(), List.of());

  private static final PathPattern ROBOTS_TXT = PathPattern.of("/robots.txt");

  /**
   * A usage rule: where it is in the file, and what its preference part says (a statement or a
   * problem).
   */
  private record UsageRule(int order, UsageFindings findings) {}

  /** The {@code Allow} (true) and {@code Disallow} (false) rules. */
  private final PathPatternIndex<Boolean> access;

  private final PathPatternIndex<UsageRule> contentUsage;
  private final PathPatternIndex<UsageRule> contentSignal;
  private final List<UsageProblem> problems;

  private RobotsUsageRules(
      List<PathPatternIndex.Entry<Boolean>> access,
      List<PathPatternIndex.Entry<UsageRule>> contentUsage,
      List<PathPatternIndex.Entry<UsageRule>> contentSignal,
      List<UsageProblem> problems) {
    this.access = new PathPatternIndex<>(access);
    this.contentUsage = new PathPatternIndex<>(contentUsage);
    this.contentSignal = new PathPatternIndex<>(contentSignal);
    this.problems = List.copyOf(problems);
  }

  /**
   * The rules {@code robotsTxt} states for the crawler named {@code agent}.
   *
   * @param robotsTxt the file's bytes, UTF-8 (invalid sequences read as U+FFFD); only the first
   *     {@link #MAX_ROBOTS_BYTES} are read
   * @param agent the crawler's product token, as its robots.txt groups name it (case-insensitive)
   */
  public static RobotsUsageRules parse(byte[] robotsTxt, String agent) {
    return new Parser(agent.strip().toLowerCase(Locale.ROOT)).parse(robotsTxt);
  }

  /**
   * The statements that apply to {@code path}, and the problems of the rules that apply but could
   * not be read, followed by the problems of the file ({@link #problems()}).
   *
   * @param path the URL's path and query ({@code /a/b?c}), as sent in the request
   */
  public UsageFindings findingsFor(String path) {
    UsageFindings fileProblems = new UsageFindings(List.of(), problems);
    if (contentUsage.isEmpty() && contentSignal.isEmpty()) {
      return fileProblems;
    }
    String normalized = PathPattern.normalize(path);
    UsageFindings found =
        longestMatches(contentUsage, normalized).and(longestMatches(contentSignal, normalized));
    // only a path that can be crawled has preferences; asked only when some rule applies
    if (found.isEmpty() || !isCrawlableNormalized(normalized)) {
      return fileProblems;
    }
    return found.and(fileProblems);
  }

  /**
   * Whether the crawler's group lets it crawl {@code path} (RFC 9309 section 2.2.2). Only such a
   * path has usage preferences in robots.txt; whether robots.txt is obeyed is the fetcher's
   * decision, not this class's.
   */
  public boolean isCrawlable(String path) {
    return isCrawlableNormalized(PathPattern.normalize(path));
  }

  /**
   * What was wrong with the file as a whole: read only in part, rules past the limit, usage rules
   * outside any group; at most three problems, reported under {@link
   * UsageSource#ROBOTS_TXT_CONTENT_USAGE} whichever kind of rule they concern.
   */
  public List<UsageProblem> problems() {
    return problems;
  }

  private boolean isCrawlableNormalized(String path) {
    if (ROBOTS_TXT.pattern().equals(path)) {
      return true;
    }
    int longest = -1;
    boolean allowed = true;
    for (PathPatternIndex.Entry<Boolean> rule : access.matching(path)) {
      int length = rule.pattern().length();
      if (length > longest) {
        allowed = rule.value();
        longest = length;
      } else if (length == longest) {
        // equal lengths: allow wins (RFC 9309 section 2.2.2)
        allowed = allowed || rule.value();
      }
    }
    return allowed;
  }

  /** The findings of the rules of the longest pattern matching {@code path}, in file order. */
  private static UsageFindings longestMatches(PathPatternIndex<UsageRule> rules, String path) {
    List<PathPatternIndex.Entry<UsageRule>> matching = rules.matching(path);
    int longest = -1;
    for (PathPatternIndex.Entry<UsageRule> rule : matching) {
      longest = Math.max(longest, rule.pattern().length());
    }
    int length = longest;
    return matching.stream()
        .filter(rule -> rule.pattern().length() == length)
        .map(PathPatternIndex.Entry::value)
        .sorted(Comparator.comparingInt(UsageRule::order))
        .map(UsageRule::findings)
        .reduce(UsageFindings.NONE, UsageFindings::and);
  }

  /** One pass over the file's lines, keeping the groups that name the crawler, or {@code *}. */
  private static final class Parser {

    private final String agent;

    /** The rules of the groups that name the crawler. */
    private final Rules named = new Rules();

    /** The rules of the groups of {@code *}. */
    private final Rules wildcard = new Rules();

    /** The current group's user agents, while its user-agent lines are read. */
    private final List<String> groupAgents = new ArrayList<>();

    /** Where the current group's rules go: {@link #named}, {@link #wildcard} or nowhere. */
    private @Nullable Rules target;

    private boolean inGroup;
    private boolean readingAgents;
    private int order;
    private int rulesOutsideGroups;
    private int rulesPastLimit;

    Parser(String agent) {
      this.agent = agent;
    }

    RobotsUsageRules parse(byte[] bytes) {
      List<UsageProblem> problems = new ArrayList<>();
      int length = bytes.length;
      if (length > MAX_ROBOTS_BYTES) {
        // the last line read whole is the last before the limit
        length = MAX_ROBOTS_BYTES;
        while (length > 0 && bytes[length - 1] != '\n' && bytes[length - 1] != '\r') {
          length--;
        }
        problems.add(
            new UsageProblem(
                UsageSource.ROBOTS_TXT_CONTENT_USAGE,
                "robots.txt of "
                    + bytes.length
                    + " bytes read to its last line within "
                    + MAX_ROBOTS_BYTES
                    + " bytes"));
      }
      String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      for (String line : text.split("\r\n|\r|\n")) {
        line(line);
      }
      if (readingAgents && groupAgents.contains(agent)) {
        // a group naming the crawler, with no rule: the crawler's group all the same
        named.seen = true;
      }
      if (rulesOutsideGroups > 0) {
        problems.add(
            new UsageProblem(
                UsageSource.ROBOTS_TXT_CONTENT_USAGE,
                rulesOutsideGroups
                    + " Content-Usage or Content-Signal lines before any user-agent line ignored"));
      }
      if (rulesPastLimit > 0) {
        problems.add(
            new UsageProblem(
                UsageSource.ROBOTS_TXT_CONTENT_USAGE,
                rulesPastLimit
                    + " Content-Usage or Content-Signal rules past the first "
                    + MAX_USAGE_RULES
                    + " of their kind ignored"));
      }
      Rules chosen = named.seen ? named : wildcard;
      if (chosen.contentUsage.isEmpty() && chosen.contentSignal.isEmpty() && problems.isEmpty()) {
        return NONE;
      }
      return new RobotsUsageRules(
          chosen.access, chosen.contentUsage, chosen.contentSignal, problems);
    }

    private void line(String line) {
      int hash = line.indexOf('#');
      String content = (hash < 0 ? line : line.substring(0, hash)).strip();
      int colon = content.indexOf(':');
      if (colon <= 0) {
        return;
      }
      String key = content.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = content.substring(colon + 1).strip();
      switch (key) {
        case "user-agent", "useragent", "user agent" -> userAgent(value);
        case "allow", "disallow" -> {
          Rules rules = groupRules();
          if (rules != null && !value.isEmpty()) {
            rules.access.add(
                new PathPatternIndex.Entry<>(PathPattern.of(value), key.equals("allow")));
          }
        }
        case "content-usage" -> usage(value, UsageSource.ROBOTS_TXT_CONTENT_USAGE);
        case "content-signal" -> usage(value, UsageSource.ROBOTS_TXT_CONTENT_SIGNAL);
        default -> {
          // sitemap, crawl-delay, host and the like: no part of a group's rules here
        }
      }
    }

    private void userAgent(String value) {
      if (!readingAgents) {
        groupAgents.clear();
        readingAgents = true;
        inGroup = true;
      }
      groupAgents.add(productToken(value));
    }

    /**
     * Where the current group's rules go: the first rule ends the group's user-agent lines and
     * chooses. Null outside any group, and for a group of other crawlers.
     */
    private @Nullable Rules groupRules() {
      if (readingAgents) {
        readingAgents = false;
        target = groupAgents.contains(agent) ? named : groupAgents.contains("*") ? wildcard : null;
        if (target != null) {
          target.seen = true;
        }
      }
      return inGroup ? target : null;
    }

    private void usage(String value, UsageSource source) {
      if (!inGroup) {
        rulesOutsideGroups++;
        return;
      }
      Rules group = groupRules();
      if (group == null) {
        return;
      }
      List<PathPatternIndex.Entry<UsageRule>> rules =
          source == UsageSource.ROBOTS_TXT_CONTENT_USAGE ? group.contentUsage : group.contentSignal;
      if (rules.size() == MAX_USAGE_RULES) {
        rulesPastLimit++;
        return;
      }
      // a value starting with '/' starts with a path, which ends at the first SP or HTAB
      String path = "/";
      String preference = value;
      if (value.startsWith("/")) {
        int end = 0;
        while (end < value.length() && value.charAt(end) != ' ' && value.charAt(end) != '\t') {
          end++;
        }
        path = value.substring(0, end);
        preference = value.substring(end).strip();
      }
      String scope = group == named ? path + " agent=" + agent : path;
      UsageFindings findings =
          source == UsageSource.ROBOTS_TXT_CONTENT_USAGE
              ? ContentUsage.read(preference, value, source, scope)
              : ContentSignal.read(preference, value, scope);
      rules.add(
          new PathPatternIndex.Entry<>(PathPattern.of(path), new UsageRule(order++, findings)));
    }

    /**
     * The product token a user-agent line names, lower case: {@code *}, or its leading letters,
     * digits, '-' and '_' ({@code ExampleBot/1.0} names {@code examplebot}).
     */
    private static String productToken(String value) {
      if (value.startsWith("*")) {
        return "*";
      }
      int end = 0;
      while (end < value.length()) {
        char c = value.charAt(end);
        if (!Character.isLetterOrDigit(c) && c != '-' && c != '_') {
          break;
        }
        end++;
      }
      return value.substring(0, end).toLowerCase(Locale.ROOT);
    }
  }

  /** The rules of the groups of one audience. */
  private static final class Rules {
    final List<PathPatternIndex.Entry<Boolean>> access = new ArrayList<>();
    final List<PathPatternIndex.Entry<UsageRule>> contentUsage = new ArrayList<>();
    final List<PathPatternIndex.Entry<UsageRule>> contentSignal = new ArrayList<>();
    boolean seen;
  }
}
