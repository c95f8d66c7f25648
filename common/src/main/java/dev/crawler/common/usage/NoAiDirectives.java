package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The robots directives {@code noai} and {@code noimageai} (introduced by DeviantArt in 2022 and
 * honoured by several dataset builders; no standard defines them), in a robots meta tag's content
 * or an {@code X-Robots-Tag} header. Directives are comma-separated and read without regard to
 * case; every other directive is left to the parser's robots handling.
 *
 * <p>An {@code X-Robots-Tag} value may address a section to one crawler ({@code otherbot: noai});
 * such a section applies only when it names our agent, and the unaddressed ones apply to every
 * crawler. A section runs to the next addressed part; repeated headers joined with ", " cannot be
 * told apart, so a generic directive after an addressed section is read as part of it. Stateless.
 */
final class NoAiDirectives {

  static final String NOAI = "noai";
  static final String NOIMAGEAI = "noimageai";

  /** Directives whose value follows a colon, which a leading user agent must not be taken for. */
  private static final Set<String> DIRECTIVES_WITH_VALUES =
      Set.of("unavailable_after", "max-snippet", "max-image-preview", "max-video-preview");

  private NoAiDirectives() {}

  /**
   * The statement a meta tag's content makes, if it says {@code noai} or {@code noimageai}.
   *
   * @param scope {@code agent=NAME} for a tag named for our agent, else empty
   */
  static Optional<UsageStatement> ofMeta(String content, String scope) {
    return statement(UsageSource.ROBOTS_META, content, scope, List.of(content));
  }

  /**
   * The statements an {@code X-Robots-Tag} value makes for the crawler named {@code agent}: one for
   * its generic sections, one for the sections addressed to {@code agent}, each only if it says
   * {@code noai} or {@code noimageai}.
   *
   * @param agent our agent's name, lower case
   */
  static List<UsageStatement> ofHeader(String value, String agent) {
    List<String> generic = new ArrayList<>();
    List<String> ours = new ArrayList<>();
    String audience = null;
    for (String part : value.split(",")) {
      String directive = part.strip();
      int colon = directive.indexOf(':');
      if (colon > 0) {
        String head = directive.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        if (isAgentName(head) && !DIRECTIVES_WITH_VALUES.contains(head)) {
          audience = head;
          directive = directive.substring(colon + 1).strip();
        }
      }
      if (audience == null) {
        generic.add(directive);
      } else if (audience.equals(agent)) {
        ours.add(directive);
      }
    }
    List<UsageStatement> statements = new ArrayList<>();
    statement(UsageSource.X_ROBOTS_TAG, value, "", generic).ifPresent(statements::add);
    statement(UsageSource.X_ROBOTS_TAG, value, "agent=" + agent, ours).ifPresent(statements::add);
    return statements;
  }

  /** The statement the directives make, if they say {@code noai} or {@code noimageai}. */
  private static Optional<UsageStatement> statement(
      UsageSource source, String raw, String scope, List<String> parts) {
    boolean noai = false;
    boolean noimageai = false;
    for (String part : parts) {
      for (String word : part.split("[,\\s]+")) {
        String directive = word.toLowerCase(Locale.ROOT);
        noai |= directive.equals(NOAI);
        noimageai |= directive.equals(NOIMAGEAI);
      }
    }
    if (!noai && !noimageai) {
      return Optional.empty();
    }
    Map<String, String> terms = new LinkedHashMap<>();
    if (noai) {
      terms.put(NOAI, "");
    }
    if (noimageai) {
      terms.put(NOIMAGEAI, "");
    }
    return Optional.of(
        UsageStatement.of(
            source, raw, scope, UsageVocabulary.ofRobotsDirectives(noai, noimageai), terms));
  }

  private static boolean isAgentName(String text) {
    return !text.isEmpty()
        && text.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_');
  }
}
