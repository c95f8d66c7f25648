package dev.crawler.common.streams;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/** A Streams service's settings with nothing of their own, for tests of what all services share. */
final class PlainStreamsSettings extends StreamsServiceConfig {

  private static final ConfigDef DEFINITION = streamsDefinition("streams-test");

  PlainStreamsSettings(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  @Override
  public String serviceName() {
    return "streams-test";
  }
}
