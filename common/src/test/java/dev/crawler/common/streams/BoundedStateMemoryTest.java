package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.rocksdb.Cache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class BoundedStateMemoryTest {

  static {
    RocksDB.loadLibrary();
  }

  /**
   * Options as Kafka Streams hands them to the setter: with a table configuration whose cache it
   * can read.
   */
  private static Options storeOptions() {
    Options options = new Options();
    options.setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache());
    return options;
  }

  private static Cache cacheOf(Options options) {
    return ((BlockBasedTableConfigWithAccessibleCache) options.tableFormatConfig()).blockCache();
  }

  @Test
  void everyStoreOfTheProcessSharesOneCache() {
    BoundedStateMemory setter = new BoundedStateMemory();
    Map<String, Object> configs = Map.of(BoundedStateMemory.MEMORY_BYTES_CONFIG, 64L * 1024 * 1024);
    try (Options urls = storeOptions();
        Options origins = storeOptions()) {
      setter.setConfig("frontier-urls", urls, configs);
      setter.setConfig(
          "frontier-origins", origins, Map.of(BoundedStateMemory.MEMORY_BYTES_CONFIG, "1024"));

      assertThat(cacheOf(urls)).isNotNull().isSameAs(cacheOf(origins));
      assertThat(
              ((org.rocksdb.BlockBasedTableConfig) urls.tableFormatConfig())
                  .cacheIndexAndFilterBlocks())
          .as("index and filters in the bounded cache")
          .isTrue();
    }
  }
}
