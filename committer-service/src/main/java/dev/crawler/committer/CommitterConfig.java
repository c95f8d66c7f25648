package dev.crawler.committer;

import dev.crawler.committer.domain.CommitPolicy;
import dev.crawler.committer.domain.CommitterSettings;
import dev.crawler.common.streams.StreamsServiceConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The committer's settings: those of every Streams service ({@link StreamsServiceConfig}); the
 * application id defaults to {@code crawler-committer}. A bad value throws {@link
 * org.apache.kafka.common.config.ConfigException} naming the setting.
 */
public final class CommitterConfig extends StreamsServiceConfig {

  public static final String NOT_FOUND_GRACE_CONFIG = "committer.not.found.grace";
  private static final String NOT_FOUND_GRACE_DOC =
      "Crawls in a row that may answer 404 before a published document is deleted; 0 deletes it at the first 404. 410 always deletes at once.";

  public static final String ERROR_GRACE_CONFIG = "committer.error.grace";
  private static final String ERROR_GRACE_DOC =
      "Crawls in a row that may fail otherwise (bad status, network errors or rate limits after the retries, too large) before a published document is deleted;"
          + " 1 deletes it when the next crawl fails too (Norconex's GRACE_ONCE).";

  public static final String DUPLICATES_CONFIG = "committer.detect.duplicates";
  private static final String DUPLICATES_DOC =
      "Whether a document with the content checksum of another published URL is DUPLICATE instead of published (the first URL keeps it), across all partitions through crawl.checksums.";

  public static final ConfigDef DEFINITION =
      streamsDefinition("crawler-committer")
          .define(
              NOT_FOUND_GRACE_CONFIG,
              ConfigDef.Type.INT,
              CommitterSettings.DEFAULTS.notFoundGrace(),
              ConfigDef.Range.between(0, 1000),
              ConfigDef.Importance.MEDIUM,
              NOT_FOUND_GRACE_DOC)
          .define(
              ERROR_GRACE_CONFIG,
              ConfigDef.Type.INT,
              CommitterSettings.DEFAULTS.errorGrace(),
              ConfigDef.Range.between(0, 1000),
              ConfigDef.Importance.MEDIUM,
              ERROR_GRACE_DOC)
          .define(
              DUPLICATES_CONFIG,
              ConfigDef.Type.BOOLEAN,
              CommitterSettings.DEFAULTS.detectsDuplicates(),
              ConfigDef.Importance.MEDIUM,
              DUPLICATES_DOC);

  public CommitterConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  /** The committer's own settings. */
  public CommitterSettings settings() {
    return new CommitterSettings(
        getInt(NOT_FOUND_GRACE_CONFIG), getInt(ERROR_GRACE_CONFIG), getBoolean(DUPLICATES_CONFIG));
  }

  /** The Streams properties, its input buffers bounded: its records are parsed documents. */
  @Override
  public Properties streamsProperties() {
    return boundPageBuffers(super.streamsProperties());
  }

  @Override
  public String serviceName() {
    return CommitPolicy.SERVICE;
  }
}
