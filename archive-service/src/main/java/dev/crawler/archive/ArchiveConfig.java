package dev.crawler.archive;

import dev.crawler.common.config.ServiceConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The archive writer's settings: those of every service ({@link ServiceConfig}) and its own. A bad
 * value stops start-up with a {@link ConfigException} naming the setting.
 */
public final class ArchiveConfig extends ServiceConfig {

  public static final String DIRECTORY_CONFIG = "archive.directory";
  private static final String DIRECTORY_DOC =
      "Where the WARC files are written (a persistent volume on Kubernetes). A file being written ends in .open; closed files are complete.";

  public static final String FILE_PREFIX_CONFIG = "archive.file.prefix";
  private static final String FILE_PREFIX_DOC =
      "The first part of every file name: PREFIX-TIMESTAMP-SERIAL-INSTANCE.warc.gz, as WARC writers name their files.";

  public static final String FILE_MAX_BYTES_CONFIG = "archive.file.max.bytes";
  private static final String FILE_MAX_BYTES_DOC =
      "The size at which a file is closed and the next one started, in bytes (compressed).";

  public static final String FILE_MAX_AGE_MS_CONFIG = "archive.file.max.age.ms";
  private static final String FILE_MAX_AGE_MS_DOC =
      "The longest a file stays open, in milliseconds: then it is closed, synced to disk, and the offsets of its records committed. It bounds what a"
          + " crash makes the writer read again, and how long an exchange waits to appear in a closed file.";

  public static final String GROUP_ID_CONFIG = "archive.group.id";
  private static final String GROUP_ID_DOC =
      "The consumer group of the archive writers; writers in one group share the partitions.";

  public static final String INSTANCE_ID_CONFIG = "archive.instance.id";
  private static final String INSTANCE_ID_DOC =
      "Names this writer in its files' names (the host part of PREFIX-TIMESTAMP-SERIAL-INSTANCE.warc.gz); the host name when empty. Two writers"
          + " sharing a directory must have different names.";

  public static final String OUTLINKS_CONFIG = "archive.outlinks";
  private static final String OUTLINKS_DOC =
      "Whether each HTML response gets a metadata record listing its outlinks (its a[href], area[href], frame and iframe src).";

  public static final ConfigDef DEFINITION =
      baseDefinition()
          .define(DIRECTORY_CONFIG, Type.STRING, "archive", Importance.HIGH, DIRECTORY_DOC)
          .define(
              FILE_PREFIX_CONFIG,
              Type.STRING,
              "crawl",
              ConfigDef.LambdaValidator.with(
                  (name, value) -> {
                    if (!String.valueOf(value).matches("[A-Za-z0-9._]+")) {
                      throw new ConfigException(
                          name, value, "letters, digits, '.' and '_' only (it is part of a name)");
                    }
                  },
                  () -> "letters, digits, '.' and '_'"),
              Importance.LOW,
              FILE_PREFIX_DOC)
          .define(
              FILE_MAX_BYTES_CONFIG,
              Type.LONG,
              1024L * 1024 * 1024,
              Range.atLeast(1024L * 1024),
              Importance.MEDIUM,
              FILE_MAX_BYTES_DOC)
          .define(
              FILE_MAX_AGE_MS_CONFIG,
              Type.LONG,
              300_000L,
              Range.between(1_000L, 86_400_000L),
              Importance.MEDIUM,
              FILE_MAX_AGE_MS_DOC)
          .define(
              GROUP_ID_CONFIG,
              Type.STRING,
              "crawler-archive",
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              GROUP_ID_DOC)
          .define(INSTANCE_ID_CONFIG, Type.STRING, "", Importance.MEDIUM, INSTANCE_ID_DOC)
          .define(OUTLINKS_CONFIG, Type.BOOLEAN, true, Importance.LOW, OUTLINKS_DOC);

  public ArchiveConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  public Path directory() {
    return Path.of(getString(DIRECTORY_CONFIG));
  }

  public Duration maxFileAge() {
    return Duration.ofMillis(getLong(FILE_MAX_AGE_MS_CONFIG));
  }

  /** This writer's name: the setting, else the host name; only characters a file name takes. */
  public String instanceId() {
    String id = getString(INSTANCE_ID_CONFIG).strip();
    if (id.isEmpty()) {
      id = System.getenv().getOrDefault("HOSTNAME", "");
    }
    if (id.isBlank()) {
      try {
        id = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        id = "archive";
      }
    }
    return id.replaceAll("[^A-Za-z0-9._]", "_");
  }
}
