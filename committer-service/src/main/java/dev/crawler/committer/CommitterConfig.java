package dev.crawler.committer;

import dev.crawler.committer.domain.CommitPolicy;
import dev.crawler.common.streams.StreamsServiceConfig;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The committer's settings: those of every Streams service ({@link StreamsServiceConfig}); the
 * application id defaults to {@code crawler-committer}. A bad value throws {@link
 * org.apache.kafka.common.config.ConfigException} naming the setting.
 */
public final class CommitterConfig extends StreamsServiceConfig {

  public static final ConfigDef DEFINITION = streamsDefinition("crawler-committer");

  public CommitterConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  @Override
  public String serviceName() {
    return CommitPolicy.SERVICE;
  }
}
