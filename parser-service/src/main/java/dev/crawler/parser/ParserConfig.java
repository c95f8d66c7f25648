package dev.crawler.parser;

import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.parser.domain.ParserSettings;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The parser's settings: those of every Streams service ({@link StreamsServiceConfig}) and its own.
 * A bad value stops start-up with a {@link ConfigException} naming the setting.
 */
public final class ParserConfig extends StreamsServiceConfig {

  public static final String MAX_TEXT_CHARS_CONFIG = "parser.max.text.chars";
  private static final String MAX_TEXT_CHARS_DOC =
      "Characters of text kept per document; the checksum covers the whole text.";

  public static final String IMPORTED_CONTENT_TYPES_CONFIG = "parser.imported.content.types";
  private static final String IMPORTED_CONTENT_TYPES_DOC =
      "Media types imported; responses of other types are IMPORT_REJECTED.";

  public static final String RECENT_LINKS_CONFIG = "parser.recent.links";
  private static final String RECENT_LINKS_DOC =
      "Links each task remembers having sent to the frontier, so a link on many pages (menus, footers) is sent once; 0 sends every link. The frontier deduplicates regardless.";

  public static final String ROBOTS_AGENT_CONFIG = "parser.robots.agent";
  private static final String ROBOTS_AGENT_DOC =
      "The crawler's name in robots directives addressed to one crawler (<meta name=\"NAME\">, X-Robots-Tag: NAME: noindex): the product token of fetcher.user.agent,"
          + " lower-case. Directives addressed to other crawlers (googlebot: noindex) are ignored.";

  public static final String MAX_LINK_CHARS_CONFIG = "parser.max.link.chars";
  private static final String MAX_LINK_CHARS_DOC =
      "The longest link, canonical or next page a page may name, in characters: a longer one is dropped in the parser and never sent"
          + " (the frontier's max-url-length option, 2048 by default, judges shorter ones with its rules).";

  public static final String MAX_OUTLINKS_CONFIG = "parser.max.outlinks";
  private static final String MAX_OUTLINKS_DOC =
      "Links kept per page at most, the first in the page's order; the others are dropped (Nutch's db.max.outlinks.per.page).";

  public static final ConfigDef DEFINITION =
      streamsDefinition("crawler-parser", STATELESS_TRANSACTION_TIMEOUT_MS)
          .define(
              MAX_TEXT_CHARS_CONFIG,
              Type.INT,
              ParserSettings.DEFAULT_MAX_TEXT_CHARS,
              Range.atLeast(0),
              Importance.MEDIUM,
              MAX_TEXT_CHARS_DOC)
          .define(
              ROBOTS_AGENT_CONFIG,
              Type.STRING,
              ParserSettings.DEFAULT_ROBOTS_AGENT,
              new ConfigDef.NonEmptyString(),
              Importance.LOW,
              ROBOTS_AGENT_DOC)
          .define(
              RECENT_LINKS_CONFIG,
              Type.INT,
              ParserSettings.DEFAULT_RECENT_LINKS,
              Range.between(0, 10_000_000),
              Importance.LOW,
              RECENT_LINKS_DOC)
          .define(
              MAX_LINK_CHARS_CONFIG,
              Type.INT,
              ParserSettings.DEFAULT_MAX_LINK_CHARS,
              Range.between(16, 1_000_000),
              Importance.LOW,
              MAX_LINK_CHARS_DOC)
          .define(
              MAX_OUTLINKS_CONFIG,
              Type.INT,
              ParserSettings.DEFAULT_MAX_OUTLINKS,
              Range.between(0, 1_000_000),
              Importance.LOW,
              MAX_OUTLINKS_DOC)
          .define(
              IMPORTED_CONTENT_TYPES_CONFIG,
              Type.LIST,
              String.join(",", ParserSettings.DEFAULT_IMPORTED_CONTENT_TYPES),
              ConfigDef.LambdaValidator.with(
                  ParserConfig::validateMediaTypes, () -> "media types, type/subtype"),
              Importance.MEDIUM,
              IMPORTED_CONTENT_TYPES_DOC);

  /**
   * @throws ConfigException naming the setting whose value is bad
   */
  public ParserConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  @Override
  public String serviceName() {
    return "parser";
  }

  /** The parser's own settings. */
  public ParserSettings settings() {
    return new ParserSettings(
        new HashSet<>(getList(IMPORTED_CONTENT_TYPES_CONFIG)),
        getInt(MAX_TEXT_CHARS_CONFIG),
        getInt(RECENT_LINKS_CONFIG),
        getString(ROBOTS_AGENT_CONFIG),
        getInt(MAX_LINK_CHARS_CONFIG),
        getInt(MAX_OUTLINKS_CONFIG));
  }

  private static void validateMediaTypes(String name, Object value) {
    if (!(value instanceof List<?> types)) {
      throw new ConfigException(name, value, "must be a list of media types");
    }
    for (Object type : types) {
      if (!ParserSettings.isMediaType(String.valueOf(type).strip().toLowerCase(Locale.ROOT))) {
        throw new ConfigException(
            name, value, "'" + type + "' is not a media type (type/subtype, without parameters)");
      }
    }
  }
}
