package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TDMRep properties {@code tdm-reservation} and {@code tdm-policy} as one technique states them
 * (W3C TDM Reservation Protocol, Final Community Group Report 2024-02-02, "Declaring the
 * reservation of TDM Rights"): {@code 1} reserves the rights, {@code 0} does not, any other value
 * is a protocol error and leaves the reservation unset; the policy is a URL.
 *
 * <p>Several values of one technique (repeated headers joined with ", ", several meta tags) are
 * read together: the rights are reserved when any valid value reserves them, and the first policy
 * is kept. Stateless.
 */
final class TdmRepValues {

  /** The longest {@code tdm-policy} URL kept, in characters; a longer one is reported. */
  static final int MAX_POLICY_CHARS = 2048;

  static final String RESERVATION = "tdm-reservation";
  static final String POLICY = "tdm-policy";

  private TdmRepValues() {}

  /**
   * The statement the values make (none when neither a valid reservation nor a policy is stated),
   * and the problems of the values that are protocol errors.
   *
   * @param source the technique
   * @param reservations the {@code tdm-reservation} values, each possibly a comma-joined list
   * @param policies the {@code tdm-policy} values, each possibly a list joined with ", "
   * @param scope what the technique is scoped to ({@link UsageStatement#scope()})
   */
  static UsageFindings read(
      UsageSource source, List<String> reservations, List<String> policies, String scope) {
    List<UsageProblem> problems = new ArrayList<>();
    Optional<Boolean> reserved = Optional.empty();
    StringBuilder raw = new StringBuilder();
    for (String value : reservations) {
      append(raw, RESERVATION, value);
      for (String part : value.split(",", -1)) {
        Optional<Boolean> one = reservation(part);
        if (one.isEmpty()) {
          problems.add(
              UsageProblem.about(
                  source, "tdm-reservation is neither 0 nor 1, so unset (protocol error)", part));
        } else {
          reserved = Optional.of(reserved.orElse(false) || one.get());
        }
      }
    }
    String policy = null;
    for (String value : policies) {
      append(raw, POLICY, value);
      for (String part : value.split(", ")) {
        String url = part.strip();
        if (url.isEmpty() || policy != null) {
          continue;
        }
        if (url.length() > MAX_POLICY_CHARS) {
          problems.add(
              UsageProblem.about(
                  source,
                  "tdm-policy longer than " + MAX_POLICY_CHARS + " characters ignored",
                  url));
        } else {
          policy = url;
        }
      }
    }
    if (reserved.isEmpty() && policy == null) {
      return new UsageFindings(List.of(), problems);
    }
    Map<String, String> terms = new LinkedHashMap<>();
    reserved.ifPresent(r -> terms.put(RESERVATION, r ? "1" : "0"));
    if (policy != null) {
      terms.put(POLICY, policy);
    }
    UsageStatement statement =
        UsageStatement.of(
            source,
            raw.toString(),
            scope,
            reserved.map(UsageVocabulary::ofTdmReservation).orElse(Map.of()),
            terms);
    return new UsageFindings(List.of(statement), problems);
  }

  /** A {@code tdm-reservation} value: true for 1, false for 0, empty for a protocol error. */
  static Optional<Boolean> reservation(String value) {
    return switch (value.strip()) {
      case "1" -> Optional.of(true);
      case "0" -> Optional.of(false);
      default -> Optional.empty();
    };
  }

  private static void append(StringBuilder raw, String name, String value) {
    if (raw.length() > 0) {
      raw.append("; ");
    }
    raw.append(name).append(": ").append(value.strip());
  }
}
