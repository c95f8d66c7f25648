package dev.crawler.parser;

import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.parser.domain.ParserSettings;
import dev.crawler.parser.tika.TikaImporter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
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
      "Links the parser remembers having sent to the frontier (all its tasks together; ~200 bytes each), so a link on many pages (menus, footers) is sent once; 0 sends every link. The frontier deduplicates regardless.";

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

  public static final String IMPORT_PROCESSES_CONFIG = "parser.import.processes";
  private static final String IMPORT_PROCESSES_DOC =
      "Files (PDF, office documents: the imported types the parser does not read itself) imported at once, each in a JVM of its own"
          + " (Apache Tika's forked parsing) started on the first file; each needs parser.import.max.heap.mb of heap and some 150 MB more.";

  public static final String IMPORT_TIMEOUT_MS_CONFIG = "parser.import.timeout.ms";
  private static final String IMPORT_TIMEOUT_MS_DOC =
      "The longest a file's import may take, in milliseconds: beyond it the import process is stopped and the file IMPORT_REJECTED (TIKA_TIMEOUT).";

  public static final String IMPORT_MAX_HEAP_MB_CONFIG = "parser.import.max.heap.mb";
  private static final String IMPORT_MAX_HEAP_MB_DOC =
      "Each import process's heap, in megabytes: a file that needs more is IMPORT_REJECTED (TIKA_OUT_OF_MEMORY) and the process started again.";

  public static final String IMPORT_MAX_INFLATED_BYTES_CONFIG = "parser.import.max.inflated.bytes";
  private static final String IMPORT_MAX_INFLATED_BYTES_DOC =
      "What a PDF's compressed streams (images aside) may inflate to, in bytes, counted before it is parsed: a larger one (a decompression bomb)"
          + " is IMPORT_REJECTED (INFLATION_LIMIT).";

  public static final String IMPORT_WORK_DIR_CONFIG = "parser.import.work.dir";
  private static final String IMPORT_WORK_DIR_DOC =
      "Where files wait for their import process, each for the time of its import; empty: a new directory under java.io.tmpdir.";

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
              IMPORT_PROCESSES_CONFIG,
              Type.INT,
              1,
              Range.between(1, 64),
              Importance.MEDIUM,
              IMPORT_PROCESSES_DOC)
          .define(
              IMPORT_TIMEOUT_MS_CONFIG,
              Type.LONG,
              30_000L,
              Range.between(1_000L, 600_000L),
              Importance.MEDIUM,
              IMPORT_TIMEOUT_MS_DOC)
          .define(
              IMPORT_MAX_HEAP_MB_CONFIG,
              Type.INT,
              512,
              Range.between(64, 65_536),
              Importance.MEDIUM,
              IMPORT_MAX_HEAP_MB_DOC)
          .define(
              IMPORT_MAX_INFLATED_BYTES_CONFIG,
              Type.LONG,
              256L * 1024 * 1024,
              Range.atLeast(1024L * 1024),
              Importance.LOW,
              IMPORT_MAX_INFLATED_BYTES_DOC)
          .define(IMPORT_WORK_DIR_CONFIG, Type.STRING, "", Importance.LOW, IMPORT_WORK_DIR_DOC)
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

  /** The Streams properties, its input buffers bounded: its records are fetch results. */
  @Override
  public Properties streamsProperties() {
    return boundPageBuffers(super.streamsProperties());
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

  /** How the import loop imports files (its work directory made up when none is set). */
  public TikaImporter.Settings importSettings() {
    String directory = getString(IMPORT_WORK_DIR_CONFIG).strip();
    Path work =
        directory.isEmpty()
            ? Path.of(
                System.getProperty("java.io.tmpdir"),
                "crawler-import-" + UUID.randomUUID().toString().substring(0, 8))
            : Path.of(directory);
    return new TikaImporter.Settings(
        work,
        getInt(IMPORT_PROCESSES_CONFIG),
        Duration.ofMillis(getLong(IMPORT_TIMEOUT_MS_CONFIG)),
        getInt(IMPORT_MAX_HEAP_MB_CONFIG),
        getInt(MAX_TEXT_CHARS_CONFIG),
        getLong(IMPORT_MAX_INFLATED_BYTES_CONFIG));
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
