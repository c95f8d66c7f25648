package dev.crawler.common.usage;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What each vocabulary's terms say in the crawler's categories ({@link UseCategory}): the one place
 * the mapping is decided.
 *
 * <table>
 *   <caption>Terms and the categories they state</caption>
 *   <tr><th>source</th><th>term</th><th>states</th></tr>
 *   <tr><td>aipref Content-Usage</td><td>{@code train-ai} (also {@code ai}, draft -01; {@code
 *       ai-train}, draft-romm-aipref-contentsignals-00)</td>
 *       <td>AI_TRAINING; GENAI_TRAINING unless {@code train-genai} is stated</td></tr>
 *   <tr><td></td><td>{@code train-genai} (drafts -02, -03; {@code genai}, -01)</td>
 *       <td>GENAI_TRAINING</td></tr>
 *   <tr><td></td><td>{@code search}</td><td>SEARCH</td></tr>
 *   <tr><td></td><td>{@code ai-use} (-02), {@code ai-output} (-04), {@code inference} (-01),
 *       {@code ai-input} (draft-romm-aipref-contentsignals-00)</td>
 *       <td>AI_USE</td></tr>
 *   <tr><td></td><td>{@code bots} (-03, -04), {@code all} (-02), {@code tdm} (-01)</td>
 *       <td>TDM, and every other category (but IMAGE_AI_TRAINING) the statement leaves
 *       unstated, as those drafts' category hierarchy says</td></tr>
 *   <tr><td>Content-Signal</td><td>{@code ai-train}</td>
 *       <td>AI_TRAINING and GENAI_TRAINING ("training or fine-tuning AI models")</td></tr>
 *   <tr><td></td><td>{@code ai-input}</td><td>AI_USE</td></tr>
 *   <tr><td></td><td>{@code search}</td><td>SEARCH</td></tr>
 *   <tr><td>TDMRep</td><td>{@code tdm-reservation: 1} / {@code 0}</td>
 *       <td>TDM, AI_TRAINING and GENAI_TRAINING disallowed / allowed (training is text and data
 *       mining under EU Directive 2019/790 Article 4, the reservation TDMRep expresses)</td></tr>
 *   <tr><td>robots meta, X-Robots-Tag</td><td>{@code noai}</td>
 *       <td>AI_TRAINING, GENAI_TRAINING and IMAGE_AI_TRAINING disallowed</td></tr>
 *   <tr><td></td><td>{@code noimageai}</td><td>IMAGE_AI_TRAINING disallowed</td></tr>
 * </table>
 *
 * <p>An aipref value is a preference only when it is the Token {@code y} or {@code n}, parameters
 * disregarded (draft-ietf-aipref-vocab, "Processing Algorithm"); any other value, and any key the
 * table does not name, states nothing and is kept as a term of the statement. Content-Signal values
 * are {@code yes} and {@code no}, read without regard to case.
 */
final class UsageVocabulary {

  /** aipref labels that state AI training: the current one and its aliases. */
  private static final Set<String> AIPREF_AI_TRAINING = Set.of("train-ai", "ai", "ai-train");

  private static final Set<String> AIPREF_GENAI_TRAINING = Set.of("train-genai", "genai");

  private static final Set<String> AIPREF_AI_USE =
      Set.of("ai-use", "ai-output", "inference", "ai-input");

  private static final Set<String> AIPREF_SEARCH = Set.of("search");

  /** The broadest category of the earlier drafts, which encompassed all the others. */
  private static final Set<String> AIPREF_AUTOMATED_PROCESSING = Set.of("bots", "all", "tdm");

  private UsageVocabulary() {}

  /**
   * What an aipref statement of preference says: its members' keys and their Token values ({@code
   * y} or {@code n}; members of other kinds are not passed).
   */
  static Map<UseCategory, Preference> ofAipref(Map<String, String> tokens) {
    Preference automated = aiprefValue(tokens, AIPREF_AUTOMATED_PROCESSING);
    Preference training = aiprefValue(tokens, AIPREF_AI_TRAINING);
    Preference genai = aiprefValue(tokens, AIPREF_GENAI_TRAINING);
    Preference use = aiprefValue(tokens, AIPREF_AI_USE);
    Preference search = aiprefValue(tokens, AIPREF_SEARCH);
    // the earlier drafts' hierarchy: an unstated category takes its parent's preference
    training = orElse(training, automated);
    genai = orElse(genai, training);
    use = orElse(use, automated);
    search = orElse(search, automated);
    Map<UseCategory, Preference> effects = new EnumMap<>(UseCategory.class);
    effects.put(UseCategory.TDM, automated);
    effects.put(UseCategory.AI_TRAINING, training);
    effects.put(UseCategory.GENAI_TRAINING, genai);
    effects.put(UseCategory.AI_USE, use);
    effects.put(UseCategory.SEARCH, search);
    return effects;
  }

  /** What a Content-Signal line says: its keys (lower case) and values as written. */
  static Map<UseCategory, Preference> ofContentSignal(Map<String, String> signals) {
    Preference train = contentSignalValue(signals.get("ai-train"));
    Map<UseCategory, Preference> effects = new EnumMap<>(UseCategory.class);
    effects.put(UseCategory.AI_TRAINING, train);
    effects.put(UseCategory.GENAI_TRAINING, train);
    effects.put(UseCategory.AI_USE, contentSignalValue(signals.get("ai-input")));
    effects.put(UseCategory.SEARCH, contentSignalValue(signals.get("search")));
    return effects;
  }

  /** What a TDMRep {@code tdm-reservation} says: 1 reserves the rights, 0 does not. */
  static Map<UseCategory, Preference> ofTdmReservation(boolean reserved) {
    Preference preference = reserved ? Preference.STATED_DISALLOWED : Preference.STATED_ALLOWED;
    Map<UseCategory, Preference> effects = new EnumMap<>(UseCategory.class);
    effects.put(UseCategory.TDM, preference);
    effects.put(UseCategory.AI_TRAINING, preference);
    effects.put(UseCategory.GENAI_TRAINING, preference);
    return effects;
  }

  /** What the robots directives {@code noai} and {@code noimageai} say; both only disallow. */
  static Map<UseCategory, Preference> ofRobotsDirectives(boolean noai, boolean noimageai) {
    Map<UseCategory, Preference> effects = new EnumMap<>(UseCategory.class);
    if (noai) {
      effects.put(UseCategory.AI_TRAINING, Preference.STATED_DISALLOWED);
      effects.put(UseCategory.GENAI_TRAINING, Preference.STATED_DISALLOWED);
    }
    if (noai || noimageai) {
      effects.put(UseCategory.IMAGE_AI_TRAINING, Preference.STATED_DISALLOWED);
    }
    return effects;
  }

  /**
   * The preference a statement gives one category through any of its {@code labels}: a current
   * label and an older alias of it in one statement are combined, the more restrictive winning.
   */
  private static Preference aiprefValue(Map<String, String> tokens, Set<String> labels) {
    Preference preference = Preference.NOT_STATED;
    for (String label : labels) {
      String token = tokens.get(label);
      if (token != null) {
        preference = preference.and(aiprefToken(token));
      }
    }
    return preference;
  }

  private static Preference aiprefToken(String token) {
    return switch (token) {
      case "y" -> Preference.STATED_ALLOWED;
      case "n" -> Preference.STATED_DISALLOWED;
      default -> Preference.NOT_STATED;
    };
  }

  private static Preference contentSignalValue(@Nullable String value) {
    if (value == null) {
      return Preference.NOT_STATED;
    }
    return switch (value) {
      case "yes" -> Preference.STATED_ALLOWED;
      case "no" -> Preference.STATED_DISALLOWED;
      default -> Preference.NOT_STATED;
    };
  }

  private static Preference orElse(Preference stated, Preference inherited) {
    return stated == Preference.NOT_STATED ? inherited : stated;
  }
}
