package dev.crawler.parser;

import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.parser.domain.PageParser;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** The parser's settings. */
public final class ParserConfig extends StreamsServiceConfig {

  public static final String MAX_TEXT_CHARS_CONFIG = "parser.max.text.chars";
  private static final String MAX_TEXT_CHARS_DOC = "Characters of text kept per document; the checksum covers the whole text.";

  public static final String IMPORTED_CONTENT_TYPES_CONFIG = "parser.imported.content.types";
  private static final String IMPORTED_CONTENT_TYPES_DOC = "Media types imported; responses of other types are IMPORT_REJECTED.";

  public static final String RECENT_LINKS_CONFIG = "parser.recent.links";
  private static final String RECENT_LINKS_DOC =
      "Links each task remembers having sent to the frontier, so a link on many pages (menus, footers) is sent once; 0 sends every link. The frontier deduplicates regardless.";

  public static final ConfigDef DEFINITION =
      streamsDefinition("crawler-parser")
          .define(MAX_TEXT_CHARS_CONFIG, Type.INT, 1_000_000, Range.atLeast(0), Importance.MEDIUM, MAX_TEXT_CHARS_DOC)
          .define(RECENT_LINKS_CONFIG, Type.INT, 100_000, Range.between(0, 10_000_000), Importance.LOW, RECENT_LINKS_DOC)
          .define(IMPORTED_CONTENT_TYPES_CONFIG, Type.LIST, String.join(",", PageParser.DEFAULT_IMPORTED_TYPES), new ConfigDef.NonNullValidator(), Importance.MEDIUM, IMPORTED_CONTENT_TYPES_DOC);

  public ParserConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  @Override
  public String serviceName() {
    return "parser";
  }

  /** The page parser these settings describe. */
  public PageParser pageParser() {
    var types = new HashSet<String>();
    getList(IMPORTED_CONTENT_TYPES_CONFIG).forEach(type -> types.add(type.strip().toLowerCase(Locale.ROOT)));
    return new PageParser(types, getInt(MAX_TEXT_CHARS_CONFIG));
  }
}
