package dev.crawler.committer.streams;

import java.util.Objects;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the global checksum index ({@value CommitterTopology#GLOBAL_CHECKSUMS_STORE}) as
 * crawl.checksums says.
 */
final class ChecksumIndexUpdater implements Processor<String, String, Void, Void> {

  private @Nullable KeyValueStore<String, String> store;

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.store = context.getStateStore(CommitterTopology.GLOBAL_CHECKSUMS_STORE);
  }

  @Override
  public void process(Record<String, String> record) {
    if (record.key() == null) {
      return;
    }
    KeyValueStore<String, String> index = Objects.requireNonNull(store, "not initialized");
    if (record.value() == null) {
      index.delete(record.key());
    } else {
      index.put(record.key(), record.value());
    }
  }
}
