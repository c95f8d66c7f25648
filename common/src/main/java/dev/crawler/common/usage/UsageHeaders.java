package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The usage statements of a response's HTTP headers: {@code Content-Usage}
 * (draft-ietf-aipref-attach-05 section 3, a Structured Field Dictionary), TDMRep's {@code
 * tdm-reservation} and {@code tdm-policy}, and {@code noai} / {@code noimageai} in {@code
 * X-Robots-Tag} (generic, or addressed to our agent).
 *
 * <p>A malformed {@code Content-Usage} is reported and states nothing; a {@code tdm-reservation}
 * other than 0 or 1 is reported and leaves the reservation unset. Stateless and thread-safe.
 */
public final class UsageHeaders {

  /** The longest header value read, in characters; a longer one is reported and ignored. */
  public static final int MAX_HEADER_CHARS = 8192;

  private static final String CONTENT_USAGE = "content-usage";
  private static final String X_ROBOTS_TAG = "x-robots-tag";

  private UsageHeaders() {}

  /**
   * The statements {@code headers} make for the crawler named {@code agent}.
   *
   * @param headers the response's headers by name (matched without regard to case), repeated
   *     headers joined with ", " as RFC 9110 section 5.3 allows
   * @param agent our crawler's name in robots directives addressed to one crawler
   */
  public static UsageFindings read(Map<String, String> headers, String agent) {
    String ourAgent = agent.strip().toLowerCase(Locale.ROOT);
    UsageFindings found = UsageFindings.NONE;
    List<String> reservations = new ArrayList<>();
    List<String> policies = new ArrayList<>();
    for (Map.Entry<String, String> header : headers.entrySet()) {
      String name = header.getKey().strip().toLowerCase(Locale.ROOT);
      String value = header.getValue();
      Optional<UsageSource> source = sourceOf(name);
      if (source.isEmpty()) {
        continue;
      }
      if (value.length() > MAX_HEADER_CHARS) {
        UsageProblem tooLong =
            UsageProblem.about(
                source.get(),
                name + " longer than " + MAX_HEADER_CHARS + " characters ignored",
                value);
        found = found.and(new UsageFindings(List.of(), List.of(tooLong)));
        continue;
      }
      switch (name) {
        case CONTENT_USAGE -> found = found.and(ContentUsage.read(value.strip(), source.get(), ""));
        case X_ROBOTS_TAG ->
            found =
                found.and(new UsageFindings(NoAiDirectives.ofHeader(value, ourAgent), List.of()));
        case TdmRepValues.RESERVATION -> reservations.add(value);
        default -> policies.add(value);
      }
    }
    // TDMRep's two properties make one statement
    return found.and(TdmRepValues.read(UsageSource.TDMREP_HEADER, reservations, policies, ""));
  }

  /** The source a header of this name (lower case) is, if it is one. */
  private static Optional<UsageSource> sourceOf(String name) {
    return switch (name) {
      case CONTENT_USAGE -> Optional.of(UsageSource.HTTP_CONTENT_USAGE);
      case X_ROBOTS_TAG -> Optional.of(UsageSource.X_ROBOTS_TAG);
      case TdmRepValues.RESERVATION, TdmRepValues.POLICY -> Optional.of(UsageSource.TDMREP_HEADER);
      default -> Optional.empty();
    };
  }
}
