package dev.crawler.common.usage;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An origin's {@code /.well-known/tdmrep.json} (W3C TDM Reservation Protocol, Final Community Group
 * Report 2024-02-02, "TDM File on the Origin Server"), parsed once and answering per path.
 *
 * <p>The file is a JSON array of rules, each an object with a {@code location} (a path pattern
 * matched as robots.txt matches paths: {@code *} for any characters, a final {@code $} for the end;
 * see {@link PathPattern}), a {@code tdm-reservation} of 1 or 0, and an optional {@code tdm-policy}
 * URL. The rule that applies to a path is the first in the file whose location matches ("The most
 * specific match is the first in sequence"); none matching leaves the reservation unset. A matching
 * rule whose {@code tdm-reservation} is neither 1 nor 0 leaves it unset too (a protocol error) and
 * is reported. The numbers 1 and 0 are also read from the strings {@code "1"} and {@code "0"},
 * which files in the wild write.
 *
 * <p>A file that is not a JSON array, or is larger than {@link #MAX_FILE_BYTES}, states nothing for
 * any path; the problem says why. An element that is not a rule (not an object, no {@code location}
 * string) is skipped and reported. At most {@link #MAX_RULES} rules are kept.
 *
 * <p>Immutable and thread-safe.
 */
public final class TdmRepFile {

  /** The largest file read, in bytes: 64 KiB. */
  public static final int MAX_FILE_BYTES = 64 * 1024;

  /** The most rules kept; later ones are reported and ignored. */
  public static final int MAX_RULES = 1_000;

  /** The most problems kept about the file as a whole. */
  static final int MAX_FILE_PROBLEMS = 3;

  /** No file, or one that states nothing: the reservation is unset for every path. */
  public static final TdmRepFile NONE = new TdmRepFile(List.of(), List.of());

  private static final UsageSource SOURCE = UsageSource.TDMREP_FILE;

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  /** A rule: its location, and what it states for a path it matches. */
  private record Rule(PathPattern location, UsageFindings findings) {}

  private final List<Rule> rules;
  private final List<UsageProblem> problems;

  private TdmRepFile(List<Rule> rules, List<UsageProblem> problems) {
    this.rules = List.copyOf(rules);
    this.problems = List.copyOf(problems);
  }

  /**
   * The rules of a {@code tdmrep.json}.
   *
   * @param json the file's bytes (UTF-8 JSON); a file over {@link #MAX_FILE_BYTES} is not parsed
   */
  public static TdmRepFile parse(byte[] json) {
    if (json.length > MAX_FILE_BYTES) {
      return malformed(
          "tdmrep.json of "
              + json.length
              + " bytes over the limit of "
              + MAX_FILE_BYTES
              + " bytes");
    }
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JacksonException e) {
      return malformed("tdmrep.json is not JSON (" + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      return malformed("tdmrep.json could not be read (" + e.getMessage() + ")");
    }
    if (root == null || !root.isArray()) {
      return malformed("tdmrep.json is not a JSON array of rules");
    }
    List<Rule> rules = new ArrayList<>();
    List<UsageProblem> problems = new ArrayList<>();
    int skipped = 0;
    for (int i = 0; i < root.size(); i++) {
      if (rules.size() == MAX_RULES) {
        problems.add(
            new UsageProblem(
                SOURCE, (root.size() - i) + " rules past the first " + MAX_RULES + " ignored"));
        break;
      }
      Optional<Rule> rule = rule(root.get(i));
      if (rule.isPresent()) {
        rules.add(rule.get());
      } else if (skipped++ < MAX_FILE_PROBLEMS - 1) {
        problems.add(
            UsageProblem.about(
                SOURCE,
                "rule " + (i + 1) + " is not an object with a location string, skipped",
                root.get(i).toString()));
      }
    }
    return new TdmRepFile(rules, problems);
  }

  /**
   * What the file states for {@code path}: the first matching rule's statement (or its problem),
   * followed by the problems of the file as a whole ({@link #problems()}).
   *
   * @param path the URL's path and query ({@code /a/b?c}), as sent in the request
   */
  public UsageFindings findingsFor(String path) {
    UsageFindings fileProblems = new UsageFindings(List.of(), problems);
    String normalized = PathPattern.normalize(path);
    for (Rule rule : rules) {
      if (rule.location().matches(normalized)) {
        return rule.findings().and(fileProblems);
      }
    }
    return fileProblems;
  }

  /** What was wrong with the file as a whole; at most {@value #MAX_FILE_PROBLEMS}. */
  public List<UsageProblem> problems() {
    return problems;
  }

  private static TdmRepFile malformed(String message) {
    return new TdmRepFile(
        List.of(), List.of(new UsageProblem(SOURCE, message + "; nothing stated")));
  }

  private static Optional<Rule> rule(JsonNode node) {
    if (!node.isObject() || !node.path("location").isTextual()) {
      return Optional.empty();
    }
    String location = node.get("location").asText();
    String raw = node.toString();
    JsonNode reservation = node.path(TdmRepValues.RESERVATION);
    JsonNode policy = node.path(TdmRepValues.POLICY);
    List<String> reservations = List.of(reservationText(reservation));
    List<String> policies = policy.isTextual() ? List.of(policy.asText()) : List.of();
    UsageFindings findings = TdmRepValues.read(SOURCE, reservations, policies, location);
    List<UsageStatement> statements = new ArrayList<>();
    for (UsageStatement statement : findings.statements()) {
      // the rule as written is the statement's text, and its location a term of it
      Map<String, String> terms = new LinkedHashMap<>();
      terms.put("location", location);
      terms.putAll(statement.terms());
      statements.add(UsageStatement.of(SOURCE, raw, location, statement.effects(), terms));
    }
    return Optional.of(
        new Rule(PathPattern.of(location), new UsageFindings(statements, findings.problems())));
  }

  /** The reservation as the text {@link TdmRepValues} reads: a number or string, else its JSON. */
  private static String reservationText(JsonNode reservation) {
    if (reservation.isIntegralNumber() || reservation.isTextual()) {
      return reservation.asText();
    }
    return reservation.isMissingNode() ? "(missing)" : reservation.toString();
  }
}
